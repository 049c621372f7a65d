import { maskMobile } from '../../shared/auth-contract';

/** Sends an SMS. A real gateway implements this; the default writes to the server log for demo use. */
export interface SmsSender {
  /** `userId`: whose message it is (a gateway needs only the number; the demo log names the user). */
  send(mobileNo: string, text: string, userId: string): Promise<void>;
}

/**
 * Demo adapter: logs one line per SMS naming the user, so two people signing in at once can tell their OTPs apart:
 * `OTP SMS for HHTDIV to 98******12: 123456 is your IR-HHT Portal login OTP, ...`.
 */
export class LogSmsSender implements SmsSender {
  constructor(private readonly log: (line: string) => void) {}
  async send(mobileNo: string, text: string, userId: string): Promise<void> {
    this.log(`OTP SMS for ${userId} to ${maskMobile(mobileNo)}: ${text}`);
  }
}
