// ESLint 9 flat config: Next's core-web-vitals rules, typescript-eslint's type-aware recommended rules, and
// eslint-config-prettier last so formatting is Prettier's alone (`npm run format`). `npm run lint` runs it; `npm test`
// fails on any error or warning.
import nextCoreWebVitals from "eslint-config-next/core-web-vitals";
import nextTypescript from "eslint-config-next/typescript";
import prettier from "eslint-config-prettier/flat";
import tseslint from "typescript-eslint";

// Import layers (docs/architecture.md "Layers"): each group lists what its files may not import. A flat config applies
// the last matching `no-restricted-imports`, so every group is complete on its own and the groups do not overlap.
const OUTSIDE_LIB = ["@/app/*", "@/components/*", "@/tests/*", "@/sim/*", "@/bench/*", "@/scripts/*", "@/proxy", "../../*"];
const API_LAYER = ["@/lib/api/endpoints/*", "@/lib/api/endpoints", "@/lib/api/with-api", "@/lib/api/openapi*", "@/lib/api/operations"];
const ROOT_AND_CLIENT = ["@/lib/server/*", "@/lib/queries/*"];
const svc = (...names) => names.flatMap((n) => [`@/lib/${n}`, `@/lib/${n}/*`]);
const LAYERS = 'docs/architecture.md "Layers"';
const belowApi = {
  group: [...OUTSIDE_LIB, ...API_LAYER, ...ROOT_AND_CLIENT],
  message: `below the API layer: no endpoint contract, withApi, OpenAPI, composition root or dashboard fetching (${LAYERS})`,
};
const restrict = (why, ...groups) => ["error", { patterns: [belowApi, { group: groups.flat(), message: `${why} (${LAYERS})` }] }];
const restrictOnly = (why, ...groups) => ["error", { patterns: [{ group: groups.flat(), message: `${why} (${LAYERS})` }] }];
export const layerRules = [
  {
    files: ["lib/**/*.{ts,tsx}"],
    ignores: ["**/*.test.ts"],
    rules: { "no-restricted-imports": restrictOnly("lib/ never imports the app, tests, simulators or scripts", OUTSIDE_LIB) },
  },
  {
    files: ["lib/{env,log,loop,timeout,backoff,format}.ts", "lib/{db,kv,metrics,security,sampled,analytics,cache}/**/*.ts"],
    ignores: ["**/*.test.ts"],
    rules: {
      "no-restricted-imports": restrict(
        "foundation and shared layers import no client, service or API module",
        svc("upstream", "oracle", "sampler", "predmkt", "resolution", "stream", "auth", "keys", "wallets", "alerts"),
      ),
    },
  },
  {
    files: ["lib/{upstream,oracle}/**/*.ts"],
    ignores: ["**/*.test.ts"],
    rules: {
      "no-restricted-imports": restrict("clients import no service", svc("sampler", "predmkt", "resolution", "stream", "auth", "keys")),
    },
  },
  {
    files: ["lib/sampler/**/*.ts"],
    ignores: ["**/*.test.ts"],
    rules: {
      "no-restricted-imports": restrict(
        "the sampler writes; it imports no reader",
        svc("predmkt", "resolution", "stream", "auth", "keys", "oracle"),
      ),
    },
  },
  {
    files: ["lib/predmkt/**/*.ts"],
    ignores: ["**/*.test.ts"],
    rules: {
      "no-restricted-imports": restrict(
        "predmkt reads the sampled store through lib/sampled, never the sampler's internals",
        svc("sampler", "stream", "auth", "keys"),
      ),
    },
  },
  {
    files: ["lib/resolution/**/*.ts"],
    ignores: ["**/*.test.ts"],
    rules: {
      "no-restricted-imports": restrict("resolution joins markets to the oracle", svc("sampler", "predmkt", "stream", "auth", "keys")),
    },
  },
  {
    files: ["lib/stream/**/*.ts"],
    ignores: ["**/*.test.ts", "lib/stream/ingest/**"],
    rules: {
      "no-restricted-imports": restrict("the stream reads; only its ingest worker writes", svc("sampler", "keys", "resolution")),
    },
  },
  {
    files: ["lib/stream/ingest/**/*.ts"],
    ignores: ["**/*.test.ts"],
    rules: {
      "no-restricted-imports": restrict("the ingest worker writes trades the sampler's way", svc("keys", "auth", "resolution")),
    },
  },
  {
    files: ["lib/wallets/**/*.ts"],
    ignores: ["**/*.test.ts"],
    rules: {
      "no-restricted-imports": restrict(
        "wallets read the Data API and their own ledger",
        svc("sampler", "predmkt", "resolution", "stream", "auth", "keys", "oracle", "alerts"),
      ),
    },
  },
  {
    // Alerts match the stored stream log and deliver; they read predmkt's shapes and meter usage through keys.
    files: ["lib/alerts/**/*.ts"],
    ignores: ["**/*.test.ts"],
    rules: {
      "no-restricted-imports": restrict("alerts consume the stream log", svc("sampler", "resolution", "oracle", "wallets")),
    },
  },
  {
    files: ["lib/{auth,keys}/**/*.ts"],
    ignores: ["**/*.test.ts"],
    rules: {
      "no-restricted-imports": restrict(
        "keys and auth know no market data, alerts or wallets (rotation listeners are wired in lib/server/key-rotation.ts)",
        svc("upstream", "oracle", "sampler", "predmkt", "resolution", "stream", "alerts", "wallets"),
      ),
    },
  },
  {
    // Pages and components read through services (lib/predmkt, lib/resolution, lib/oracle/service, lib/queries).
    files: ["app/**/*.{ts,tsx}", "components/**/*.{ts,tsx}"],
    ignores: ["app/api/**"],
    rules: {
      "no-restricted-imports": restrictOnly(
        "pages read through services",
        ["@/lib/db/*", "@/lib/kv/*", "@/lib/generated/*", "@/lib/upstream/*", "@/lib/sampler", "@/lib/sampler/*", "@/lib/sampled/*"],
        ["@/lib/oracle/*", "!@/lib/oracle/service"],
      ),
    },
  },
];

export default tseslint.config(
  {
    ignores: [
      "node_modules/**",
      ".next/**",
      ".next-*/**",
      ".data/**",
      "lib/generated/**",
      "bench/results/**",
      "sim/chain/build/**",
      "test-results/**",
      "playwright-report/**",
      "next-env.d.ts",
    ],
  },
  ...nextCoreWebVitals,
  ...nextTypescript,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    linterOptions: { reportUnusedDisableDirectives: "error" },
    rules: {
      // An async function without `await` is how this code implements a Promise-returning interface (route handlers,
      // fakes, `close()`); the rule would only force `Promise.resolve` wrappers around the same values.
      "@typescript-eslint/require-await": "off",
      // `_`-prefixed bindings are deliberately unused (positional parameters, rest-omit destructuring).
      "@typescript-eslint/no-unused-vars": [
        "error",
        { argsIgnorePattern: "^_", varsIgnorePattern: "^_", caughtErrorsIgnorePattern: "^_", ignoreRestSiblings: true },
      ],
    },
  },
  {
    // Tests read untyped JSON bodies (`await res.json()`) and assert their shape at run time; typing every body would
    // restate the contracts the tests exist to check. The rest of the type-aware rules apply to tests as well.
    files: ["tests/**/*.ts", "**/*.test.ts", "**/*.spec.ts"],
    rules: {
      "@typescript-eslint/no-explicit-any": "off",
      "@typescript-eslint/no-unsafe-argument": "off",
      "@typescript-eslint/no-unsafe-assignment": "off",
      "@typescript-eslint/no-unsafe-call": "off",
      "@typescript-eslint/no-unsafe-member-access": "off",
      "@typescript-eslint/no-unsafe-return": "off",
      "@typescript-eslint/restrict-template-expressions": "off",
      "@typescript-eslint/no-base-to-string": "off",
    },
  },
  {
    // Plain-JS config and scripts are outside the TypeScript project: lint them without type information.
    files: ["**/*.{js,mjs,cjs}"],
    ...tseslint.configs.disableTypeChecked,
  },
  ...layerRules,
  prettier,
);
