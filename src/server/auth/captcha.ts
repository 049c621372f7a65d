import svgCaptcha from 'svg-captcha';

/** Letters and digits that cannot be confused with each other (no 0/O, 1/I/L). */
const CHARS = 'ABCDEFGHJKMNPQRSTUVWXYZ23456789';

export interface CaptchaPicture {
  answer: string;
  imageDataUrl: string;
}

/** A picture captcha: the answer is drawn as distorted paths (no text in the SVG), with noise lines. */
export function drawCaptcha(): CaptchaPicture {
  const c = svgCaptcha.create({
    size: 5,
    charPreset: CHARS,
    noise: 3,
    color: true,
    background: '#eef2f8',
    width: 160,
    height: 50,
    fontSize: 52,
  });
  return {
    answer: c.text.toUpperCase(),
    imageDataUrl: `data:image/svg+xml;base64,${Buffer.from(c.data, 'utf8').toString('base64')}`,
  };
}

/** Answers compare case-insensitively and ignore surrounding spaces. */
export function normaliseCaptchaAnswer(answer: string): string {
  return answer.trim().toUpperCase();
}
