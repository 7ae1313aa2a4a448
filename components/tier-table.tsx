// The tiers and their request limits (lib/auth/tiers.ts), as the API reference and the API access page show them.
import type { ReactNode } from "react";
import { TIERS, tierLimit } from "@/lib/auth/tiers";

export function TierTable({ caption, notes }: { caption?: ReactNode; notes?: Record<(typeof TIERS)[number], string> }) {
  return (
    <table className="data">
      {caption ? <caption>{caption}</caption> : null}
      <thead>
        <tr>
          <th scope="col">Tier</th>
          <th scope="col" className="num">
            Requests / minute
          </th>
          {notes ? <th scope="col">For</th> : null}
        </tr>
      </thead>
      <tbody>
        {TIERS.map((tier) => (
          <tr key={tier}>
            <td>{tier}</td>
            <td className="num">{tierLimit(tier).toLocaleString("en-US")}</td>
            {notes ? <td>{notes[tier]}</td> : null}
          </tr>
        ))}
      </tbody>
    </table>
  );
}
