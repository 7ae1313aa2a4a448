import Link from "next/link";

export default function EventNotFound() {
  return (
    <section className="panel">
      <h1>No such event</h1>
      <p className="lede">
        It may have closed, or the address is mistyped. Browse the open events on the <Link href="/">overview</Link>.
      </p>
    </section>
  );
}
