import ky from 'ky';

/**
 * Minimal API client (placeholder until the sign-in branch's full client lands: refresh queue, XSRF,
 * 401/403 rules). Paths are relative to /api: api.get('meta/reports').
 */
export const api = ky.create({
  prefixUrl: '/api',
  timeout: 60_000,
  retry: 0,
  hooks: {
    beforeRequest: [
      (request) => {
        const token = typeof sessionStorage === 'undefined' ? null : sessionStorage.getItem('ACCESS_TOKEN');
        if (token) request.headers.set('Authorization', `Bearer ${token}`);
      },
    ],
  },
});
