"use client";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { getDashboardToken } from "@/lib/queries/token";

// One QueryClient per browser tab, created inside state so a server render never shares one between visitors.
export function Providers({ children }: { children: React.ReactNode }) {
  const [client] = useState(
    () =>
      new QueryClient({
        defaultOptions: {
          queries: { refetchOnWindowFocus: false, gcTime: 5 * 60_000 },
        },
      }),
  );
  // Fetch the API token while the visitor reads the server-rendered page, so the first refresh does not wait for it
  // (and from then on it is renewed ahead of expiry). A failure here is retried by the first query that needs it.
  useEffect(() => {
    getDashboardToken().catch(() => undefined);
    // A hook for tests and tooling: controls are live from here on.
    document.documentElement.dataset.hydrated = "true";
  }, []);
  return <QueryClientProvider client={client}>{children}</QueryClientProvider>;
}
