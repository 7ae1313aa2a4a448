"use client";
import Link from "next/link";
import { usePathname } from "next/navigation";

const LINKS = [
  { href: "/", label: "Overview" },
  { href: "/movers", label: "Movers" },
  { href: "/whales", label: "Whales" },
  { href: "/trades", label: "Trades" },
  { href: "/oracle", label: "Oracle" },
  { href: "/docs", label: "API" },
  { href: "/api-access", label: "API access" },
];

export function SiteHeader() {
  const pathname = usePathname() ?? "/";
  const active = (href: string) => (href === "/" ? pathname === "/" || pathname.startsWith("/events") : pathname.startsWith(href));
  return (
    <header className="site-header">
      <div className="container header-inner">
        <Link href="/" className="brand" aria-label="Predmkt home">
          <span className="brand-mark" aria-hidden="true">
            ◆
          </span>{" "}
          Predmkt
        </Link>
        <nav aria-label="Main">
          <ul className="nav-links">
            {LINKS.map((l) => (
              <li key={l.href}>
                <Link href={l.href} aria-current={active(l.href) ? "page" : undefined}>
                  {l.label}
                </Link>
              </li>
            ))}
          </ul>
        </nav>
      </div>
    </header>
  );
}
