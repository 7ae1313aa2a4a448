import Link from "next/link";
import { SiteHeader } from "@/components/site-header";

export default function DashboardLayout({ children }: { children: React.ReactNode }) {
  return (
    <>
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <SiteHeader />
      <main id="main" className="container main">
        {children}
      </main>
      <footer className="site-footer">
        <div className="container">
          Public dashboard over the same data as the <Link href="/docs">keyed JSON API</Link>. Sampled figures refresh every few seconds;{" "}
          <code>-live</code> panels come straight from Polymarket (cached 10–90 s); oracle figures are read on-chain.
        </div>
      </footer>
    </>
  );
}
