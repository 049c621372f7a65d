/**
 * Sign-in and session contract shared by client and server: request/response shapes of spec section 3 and 7,
 * limits of section 9 and every message of section 8 (word for word), plus the server's own messages.
 */
import type { UserLevel } from './constants';

// ---- Limits (spec sections 5 and 9, and the server's own limits) ----
export const AUTH_LIMITS = {
  credentialMaxLength: 25,
  captchaAnswerMaxLength: 8,
  otpLength: 6,
  /** Client: wrong captchas before the lock, and the lock length. */
  captchaFailuresBeforeLock: 5,
  captchaLockSeconds: 30,
  /** Client: resend timer when the OTP step opens, and after each successful resend. */
  resendInitialSeconds: 30,
  resendWaitSeconds: 60,
  /** Server. */
  captchaTtlMs: 2 * 60_000,
  lockoutFailures: 5,
  lockoutWindowMs: 15 * 60_000,
  lockoutMs: 15 * 60_000,
  loginGrantTtlMs: 5 * 60_000,
  otpTtlMs: 5 * 60_000,
  otpMaxWrongAttempts: 5,
  accessTokenTtlSeconds: 15 * 60,
  refreshTokenTtlMs: 12 * 60 * 60_000,
  /**
   * A used refresh token presented again within this time, while the token its refresh gave has not been used, is
   * a lost answer (page reloaded or connection dropped mid-refresh), not theft: answered again instead of revoking.
   */
  refreshReuseGraceMs: 30_000,
  sessionTtlMs: 12 * 60 * 60_000,
} as const;

// ---- Session storage keys (spec section 3) ----
export const STORAGE_KEYS = { accessToken: 'ACCESS_TOKEN', refreshToken: 'REFRESH_TOKEN', trains: 'ENCRYPT' } as const;

// ---- Cookie / header names of the XSRF double submit ----
export const XSRF_COOKIE = 'XSRF-TOKEN';
export const XSRF_HEADER = 'X-XSRF-TOKEN';
/** HttpOnly cookie naming the login grant of the client that passed the password step (the OTP calls need it). */
export const LOGIN_GRANT_COOKIE = 'HHT-LOGIN-GRANT';

// ---- Requests and responses ----
export interface CaptchaResponse {
  captchaId: string;
  imageDataUrl: string;
}
export interface LoginRequest {
  /** Encrypted. */
  userId: string;
  /** Encrypted. */
  pwd: string;
  captchaId: string;
  captchaAnswer: string;
}
export interface LoginResponse {
  code: number;
  message: string;
  loginFlag: boolean;
}
export interface OtpSendRequest {
  /** Encrypted. */
  userId: string;
  /** dd/mm/yyyy */
  srcDate: string;
}
export interface OtpSendResponse {
  code: number;
  message: string;
}
export interface OtpVerifyRequest {
  /** Encrypted. */
  userId: string;
  /** Encrypted. */
  otp: string;
}
export interface OtpVerifyResponse {
  code: number;
  message: string;
  accessToken?: string;
  refreshToken?: string;
}
export interface TokenPair {
  accessToken: string;
  refreshToken: string;
}
export interface ProfileResponse {
  encryptedProfile: string;
}
export interface LogoutRequest {
  userId: string;
}
export interface TrainManningRequest {
  userLevel: UserLevel;
  /** Absent, null or '' for SU (all trains). */
  code?: string | null;
}
export interface TrainItem {
  train_no: string;
}
/** 401 body of an expired access token: the client's cue to refresh once and retry. */
export interface TokenExpiredBody {
  code: 'TOKEN_EXPIRED';
  message: string;
}

// ---- Response codes ----
export const LOGIN_CODES = { ok: 1, badCredentials: -1, locked: -2, inactive: -3, captcha: -10 } as const;
export const OTP_CODES = { ok: 1, exists: 0, notAllowed: -1, wait: -2 } as const;
export const VERIFY_CODES = { ok: 1, wrong: -1, none: 0 } as const;

// ---- Messages the server sends ----
export const SERVER_MESSAGES = {
  captchaWrong: 'Invalid or expired captcha. Please try again.',
  badCredentials: 'Invalid User ID or Password',
  inactive: 'This User ID is inactive. Please contact the HHT Team.',
  locked: (minutes: number) =>
    `Account locked after 5 wrong passwords. Try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`,
  loginOk: 'Login successful. Proceed to OTP verification.',
  otpSent: (masked: string) => `OTP sent successfully on ${masked}`,
  otpExists: 'OTP already exists for this User ID',
  otpNoLogin: 'Please login again: no recent successful login for this User ID.',
  otpResent: (masked: string) => `OTP resent successfully on ${masked}`,
  otpResendWait: (seconds: number) => `Please wait ${seconds}s before requesting a new OTP.`,
  otpWrong: 'Incorrect OTP.',
  otpInvalidated: 'Incorrect OTP. Too many wrong attempts: this OTP is no longer valid, please resend OTP.',
  otpNotFound: 'OTP not found or expired. Please resend OTP.',
  otpVerified: 'OTP verified. Logged in.',
  tokenExpired: 'Access token expired',
  sessionInvalid: 'Session invalid or superseded',
  noToken: 'Missing or invalid access token',
  xsrf: 'Missing or mismatched XSRF token',
  logoutMismatch: 'userId does not match the signed-in user',
  loggedOut: 'Logged out successfully.',
  scopeDenied: 'The requested train scope is wider than this user may see',
  rateLimited: (seconds: number) => `Too many requests from this address. Try again in ${seconds}s.`,
} as const;

// ---- Client messages (spec section 8, word for word) ----
export const LOGIN_MESSAGES = {
  captchaLoadFailed: 'Failed to load CAPTCHA.',
  locked: (seconds: number) => `Too many attempts. Try again in ${seconds}s.`,
  unsolved: 'Please solve the CAPTCHA.',
  error: 'Error logging in.',
  invalidResponse: 'Invalid login response',
  fallback: 'Invalid credentials, try again later',
} as const;

export const OTP_SEND_MESSAGES = {
  noUser: 'No user info available to send OTP.',
  failed: 'Failed to send OTP.',
  failedRetry: 'Failed to send OTP. Please try again.',
  sentPrefix: 'OTP sent successfully on',
  exists: 'OTP already exists for this User ID',
  enterOtp: 'Please enter the OTP.',
} as const;

export const OTP_VERIFY_MESSAGES = {
  incorrect: 'Incorrect OTP.',
  notFound: 'OTP not found.',
  failed: 'OTP verification failed.',
  success: 'OTP verified. Logged in.',
  network: 'Error verifying OTP. Please try again.',
  empty: 'Please enter the OTP.',
} as const;

export const OTP_RESEND_MESSAGES = {
  failed: 'Failed to resend OTP.',
  network: 'Error resending OTP. Please try again.',
  wait: (seconds: number) => `Please wait ${seconds}s`,
} as const;

export const SESSION_MESSAGES = {
  forcedLogout: 'Session expired, Please login again',
  superseded: 'Already Logged in with different session',
  supersededError: 'Session invalid or superseded',
  guardFailed: 'Session Expired, Please login again',
  loggedOut: 'Logged out successfully.',
} as const;

/** Text markers of a superseded/revoked session in a 401 body (spec section 8). */
export const SUPERSEDED_MARKERS = ['Session invalid', 'superseded', 'Key'] as const;

/** 'dd/mm/yyyy' of a date (local calendar of the caller). */
export function toSrcDate(d: Date): string {
  const dd = String(d.getDate()).padStart(2, '0');
  const mm = String(d.getMonth() + 1).padStart(2, '0');
  return `${dd}/${mm}/${d.getFullYear()}`;
}

/** Masks a mobile number for messages and logs: '98******21'. */
export function maskMobile(mobile: string): string {
  const digits = mobile.replace(/\D/g, '');
  if (digits.length < 4) return '*'.repeat(digits.length);
  return `${digits.slice(0, 2)}${'*'.repeat(digits.length - 4)}${digits.slice(-2)}`;
}
