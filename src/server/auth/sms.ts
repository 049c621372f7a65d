import { maskMobile } from '../../shared/auth-contract';

/** Sends an SMS. A real gateway implements this; the default writes to the server log for demo use. */
export interface SmsSender {
  send(mobileNo: string, text: string): Promise<void>;
}

/** Demo adapter: logs the masked number and the text (which carries the OTP). */
export class LogSmsSender implements SmsSender {
  constructor(private readonly log: (line: string) => void) {}
  async send(mobileNo: string, text: string): Promise<void> {
    this.log(`SMS to ${maskMobile(mobileNo)}: ${text}`);
  }
}
