// For people: fills a server as the test does and leaves it running (node look.mjs <krino>).
import { experimentFile, makeWorkspace, runExperiment, startServe } from './fixture.mjs';
const krino = process.argv[2];
const dir = makeWorkspace();
const serve = await startServe(krino, `${dir}/data`);
const file = experimentFile(dir, `${serve.url}/`);
const a = await runExperiment(krino, file, { KRINO_UI_VARIANT: 'a' });
const b = await runExperiment(krino, file, { KRINO_UI_VARIANT: 'b' });
console.log(serve.url, a, b);
