import { useQuery } from '@tanstack/react-query';
import { api, rememberCsrfToken, type Account } from './api.js';

/** The signed-in user (`GET /api/v2/account/me`), read once per page load and shared by every screen. */
export function useAccount() {
  return useQuery({
    queryKey: ['me'],
    queryFn: async () => {
      const account = await api<Account>('/api/v2/account/me');
      rememberCsrfToken(account.csrf_token);
      return account;
    },
    staleTime: Infinity,
  });
}
