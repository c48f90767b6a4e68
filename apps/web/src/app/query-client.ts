import { QueryClient } from '@tanstack/react-query';

export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        staleTime: 30_000,
        // The HTTP client already reports failures to the user; three silent retries
        // would only delay that message.
        retry: 1,
        // Most screens are forms; refetching on focus would overwrite what is being edited.
        refetchOnWindowFocus: false,
      },
    },
  });
}
