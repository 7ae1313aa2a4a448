// `npm run chain:compile`: rebuilds the committed compiled contracts of the local chains (sim/chain/compiled.json)
// after a change to sim/chain/contracts/*.sol or to the solc version (sim/chain/compile.ts says why it is committed).
import { writeCompiled } from "@/sim/chain/compile";

const started = performance.now();
const compiled = writeCompiled();
console.log(
  `sim/chain/compiled.json: ${Object.keys(compiled.contracts).length} contracts, solc ${compiled.solc}, ` +
    `${Math.round(performance.now() - started)} ms`,
);
