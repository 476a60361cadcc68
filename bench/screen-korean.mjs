/**
 * Offline evaluation of Hangul queries against the bundled SDN and UN lists (issue 21): listed North Korean
 * persons written in Hangul, as Korean sources write them, and innocent Korean names. Engine in this Node
 * process; run `node_modules/.bin/node bench/screen-korean.mjs [checkout]` (default: this one).
 *
 * Listed persons: the Hangul is that of the person's Korean Wikipedia article (URL per item), the expected
 * entry the list's own Latin entry. Items alternate between a development split (used while building the
 * romanization) and a test split (not tuned on). Innocent names: the ten most frequent surnames of the 2015
 * census (Statistics Korea, https://kosis.kr, "성씨·본관별 인구") combined with the most frequent given names
 * registered for births in 2008-2022 (Supreme Court of Korea family-register statistics,
 * https://efamily.scourt.go.kr, "출생신고 이름 통계"), every pairing. A hit at 0.7 on them is a false positive
 * unless the listed person carries exactly that name (reported separately as a homonym).
 */
import { screenEngine } from "./lib/screen-engine.mjs";

const wiki = (t) => `https://ko.wikipedia.org/wiki/${encodeURIComponent(t)}`;
const LISTED = [
  ["김정은", ["SDN:20157"], wiki("김정은")],
  ["최룡해", ["SDN:23213"], wiki("최룡해")],
  ["김여정", ["SDN:21444"], wiki("김여정")],
  ["리병철", ["SDN:23215", "UN:KPi.076"], wiki("리병철")],
  ["최휘", ["SDN:21306", "UN:KPi.042"], wiki("최휘")],
  ["리수용", ["SDN:21735", "UN:KPi.052"], wiki("리수용")],
  ["김영철", ["SDN:12211", "SDN:17614", "UN:KPi.024"], wiki("김영철 (1946년)")],
  ["김원홍", ["SDN:21443"], wiki("김원홍")],
  ["황병서", ["SDN:19496"], wiki("황병서")],
  ["리만건", ["SDN:19491", "UN:KPi.026"], wiki("리만건")],
  ["정경택", ["SDN:23212"], wiki("정경택")],
  ["오극렬", ["SDN:15771"], wiki("오극렬")],
  ["김기남", ["SDN:20126"], wiki("김기남")],
  ["박영식", ["SDN:19497", "UN:KPi.063"], wiki("박영식")],
  ["리용무", ["SDN:19494", "UN:KPi.053"], wiki("리용무")],
  ["최부일", ["SDN:20120"], wiki("최부일")],
  ["조용원", ["SDN:21303", "UN:KPi.043"], wiki("조용원")],
  ["김경옥", ["SDN:20125", "UN:KPi.045"], wiki("김경옥")],
  ["리재일", ["SDN:20127", "UN:KPi.051"], wiki("리재일")],
  ["김정식", ["SDN:23214", "UN:KPi.066"], wiki("김정식 (1969년)")],
];
const SURNAMES = ["김", "이", "박", "최", "정", "강", "조", "윤", "장", "임"];
const GIVEN = [
  "민준",
  "서준",
  "도윤",
  "예준",
  "시우",
  "하준",
  "지호",
  "서연",
  "서윤",
  "지우",
  "서현",
  "민서",
  "하은",
  "지민",
  "수빈",
  "현우",
  "지훈",
  "유진",
  "은지",
  "동현",
];

const { screen } = await screenEngine(process.argv[2]);
const ids = (q) => screen(q);

const splits = { dev: [0, 0], test: [0, 0] };
const misses = [];
LISTED.forEach(([q, expected], i) => {
  const split = i % 2 === 0 ? "dev" : "test";
  const found = ids(q).some((h) => expected.includes(h.id));
  splits[split][0] += found ? 1 : 0;
  splits[split][1] += 1;
  if (!found) misses.push(`${q} (${expected.join(", ")})`);
});
let flagged = 0;
const hits = [];
for (const s of SURNAMES)
  for (const g of GIVEN) {
    const h = ids(`${s}${g}`);
    if (h.length) {
      flagged++;
      hits.push(`${s}${g} → ${h[0].name} ${h[0].score}`);
    }
  }
const pct = ([a, b]) => `${a}/${b} (${((100 * a) / b).toFixed(0)} %)`;
console.log(`Hangul queries of listed persons, found at 0.7: dev ${pct(splits.dev)}, test ${pct(splits.test)}`);
if (misses.length) console.log(`  missed: ${misses.join("; ")}`);
console.log(`Innocent Korean names flagged at 0.7: ${pct([flagged, SURNAMES.length * GIVEN.length])}`);
for (const h of hits.slice(0, 60)) console.log(`  ${h}`);
