"use client";
// Last line of defence: a page whose server render failed outright shows a calm message and a retry, inside the
// normal layout (panels that fail individually never get here; they show their own notice).
import Link from "next/link";

export default function DashboardError({ reset }: { error: Error & { digest?: string }; reset: () => void }) {
  return (
    <section className="panel" role="alert">
      <h1>This page is taking a break</h1>
      <p className="lede">Its data could not be loaded just now. This is usually brief.</p>
      <p>
        <button type="button" className="button" onClick={() => reset()}>
          Try again
        </button>{" "}
        or go back to the <Link href="/">overview</Link>.
      </p>
    </section>
  );
}
