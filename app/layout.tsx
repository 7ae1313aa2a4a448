import type { Metadata, Viewport } from "next";
import { Providers } from "@/components/providers";
import "./globals.css";

export const metadata: Metadata = {
  title: { default: "Predmkt — prediction-market analytics", template: "%s · Predmkt" },
  description: "Live and sampled analytics over Polymarket events, markets, trades and UMA oracle disputes.",
};

export const viewport: Viewport = { width: "device-width", initialScale: 1, themeColor: "#0b0e14" };

// System fonts only (globals.css): nothing is downloaded at build or run time.
export default function RootLayout({ children }: Readonly<{ children: React.ReactNode }>) {
  return (
    <html lang="en">
      <body>
        <Providers>{children}</Providers>
      </body>
    </html>
  );
}
