// ESLint 9 flat config: Next's core-web-vitals rules, typescript-eslint's type-aware recommended rules, and
// eslint-config-prettier last so formatting is Prettier's alone (`npm run format`). `npm run lint` runs it; `npm test`
// fails on any error or warning.
import nextCoreWebVitals from "eslint-config-next/core-web-vitals";
import nextTypescript from "eslint-config-next/typescript";
import prettier from "eslint-config-prettier/flat";
import tseslint from "typescript-eslint";

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
  prettier,
);
