import { customersThroughPage } from '/work/wt/custperf/bench/support/customers-page.js';
const figures = await customersThroughPage(Number(process.env.N ?? 100000));
for (const f of figures) console.log(JSON.stringify(f));
