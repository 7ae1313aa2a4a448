import type { Metadata } from "next";
import "./globals.css";

export const metadata: Metadata = {
  title: "Predmkt — prediction-market analytics",
  description: "Live and sampled analytics over Polymarket events, markets, trades and UMA oracle disputes.",
};

export default function RootLayout({ children }: Readonly<{ children: React.ReactNode }>) {
  return (
    <html lang="en">
      <body>{children}</body>
    </html>
  );
}
