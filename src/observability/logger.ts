// Structured logs (pino). Secrets never reach them: known secret fields are redacted wherever they appear,
// and platform URLs are logged without their query strings (see platforms/http.ts).
import pino, { type Logger } from 'pino';

export const REDACT_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  'headers.authorization',
  '*.authorization',
  '*.accessToken',
  '*.refreshToken',
  '*.access_token',
  '*.refresh_token',
  '*.client_secret',
  '*.clientSecret',
  '*.code_verifier',
  '*.codeVerifier',
  '*.secret',
  '*.key',
  '*.password',
];

export function createLogger(options: { level: string; destination?: pino.DestinationStream }): Logger {
  return pino(
    {
      level: options.level,
      redact: { paths: REDACT_PATHS, censor: '[redacted]' },
      base: { service: 'herald' },
      timestamp: pino.stdTimeFunctions.isoTime,
    },
    options.destination,
  );
}
