import { MutationCache, QueryCache, QueryClient } from "@tanstack/react-query";
import { ApiError } from "./api-client";
import { toastError } from "./toast-error";

declare module "@tanstack/react-query" {
  interface Register {
    /** `meta: { silentError: true }` on a query or mutation: the caller shows the error itself. */
    queryMeta: { silentError?: boolean };
    mutationMeta: { silentError?: boolean };
  }
}

/** A 401 ends the session (the login page shows); nothing to toast. */
const shouldToast = (err: unknown, silent: boolean | undefined) => !silent && !(err instanceof ApiError && err.status === 401);

export const createQueryClient = () =>
  new QueryClient({
    queryCache: new QueryCache({
      onError: (err, query) => {
        if (shouldToast(err, query.meta?.silentError)) toastError(err);
      },
    }),
    mutationCache: new MutationCache({
      onError: (err, _vars, _ctx, mutation) => {
        if (shouldToast(err, mutation.meta?.silentError)) toastError(err);
      },
    }),
    defaultOptions: {
      queries: {
        staleTime: 30_000,
        refetchOnWindowFocus: false,
        retry: (count, err) => !(err instanceof ApiError && err.status < 500) && count < 2,
      },
      mutations: { retry: false },
    },
  });

/** The app's client (tests create their own with createQueryClient). */
export const queryClient = createQueryClient();
