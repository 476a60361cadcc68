/**
 * Offline measure of the common-names discount (issue 21): innocent Spanish names recombined from INE's
 * ranking of the most frequent given names and surnames (population register 2023,
 * https://www.ine.es/dyngs/INEbase/es/operacion.htm?c=Estadistica_C&cid=1254736177009): one given name and two
 * different surnames, 570 names. A hit at 0.7 is a false positive. The ranking is also where the Spanish
 * part of src/engines/screen/common-names.ts comes from, so this shows the mechanism at work, not a held-out
 * rate. Then two-word names (given name + surname, 400 per culture) from the rankings named in
 * src/engines/screen/common-names.ts (INE; SSA and Census; Forebears for Egypt; the Ministry of Public Security's
 * report for China; Forebears for Russia), by band: exact or word-for-word spellings of a listed name (a
 * homonym, which name screening must flag), and partial matches (the false positives a scorer can avoid).
 * Run `node_modules/.bin/node bench/screen-common-names.mjs [checkout]`.
 */
import { screenEngine } from "./lib/screen-engine.mjs";

const { screen } = await screenEngine(process.argv[2]);
const G = [
  "Antonio",
  "José",
  "Manuel",
  "Francisco",
  "David",
  "Juan",
  "Javier",
  "José Antonio",
  "Daniel",
  "José Luis",
  "Francisco Javier",
  "Carlos",
  "Jesús",
  "Alejandro",
  "Miguel",
  "José Manuel",
  "Rafael",
  "Pedro",
  "Ángel",
  "Pablo",
  "María Carmen",
  "María",
  "Carmen",
  "Ana María",
  "Laura",
  "María Pilar",
  "María Dolores",
  "Isabel",
  "Josefa",
  "Marta",
];
const S = [
  "García",
  "Rodríguez",
  "González",
  "Fernández",
  "López",
  "Martínez",
  "Sánchez",
  "Pérez",
  "Gómez",
  "Martín",
  "Jiménez",
  "Ruiz",
  "Hernández",
  "Díaz",
  "Moreno",
  "Muñoz",
  "Álvarez",
  "Romero",
  "Alonso",
  "Gutiérrez",
];
let n = 0,
  flagged = 0;
const ex = {};
for (let i = 0; i < G.length; i++)
  for (let j = 0; j < S.length; j++) {
    const s2 = S[(j * 7 + i * 3 + 5) % S.length];
    if (s2 === S[j]) continue;
    const q = `${G[i]} ${S[j]} ${s2}`;
    n++;
    const h = screen(q);
    if (h.length) {
      flagged++;
      const k = h[0].name;
      ex[k] = (ex[k] ?? 0) + 1;
      if (ex[k] === 1) console.log(`  ${q} → ${k} ${h[0].score}`);
    }
  }
console.log(`flagged ${flagged}/${n} = ${((100 * flagged) / n).toFixed(1)}%`);

const TWO = {
  spanish: [G.slice(0, 20).filter((g) => !g.includes(" ")), S],
  english: [
    ["James", "John", "Robert", "Michael", "William", "David", "Richard", "Joseph", "Thomas", "Charles"],
    ["Mary", "Patricia", "Jennifer", "Linda", "Elizabeth", "Barbara", "Susan", "Jessica", "Sarah", "Karen"],
    ["Smith", "Johnson", "Williams", "Brown", "Jones", "Miller", "Davis", "Wilson", "Anderson", "Taylor"],
    ["Moore", "Jackson", "Lee", "Thompson", "White", "Harris", "Martin", "Clark", "Lewis", "Walker"],
  ],
  arabic: [
    ["Mohamed", "Ahmed", "Mahmoud", "Ali", "Hassan", "Hussein", "Ibrahim", "Abdullah", "Omar", "Khaled"],
    ["Youssef", "Mostafa", "Said", "Saleh", "Fatma", "Aisha", "Maryam", "Nour", "Sara", "Tarek"],
    ["Hassan", "Ali", "Ibrahim", "Mohamed", "Ahmed", "Mahmoud", "Abdullah", "Saleh", "Salem", "Nasser"],
    ["Khalil", "Mansour", "Haddad", "Youssef", "Aziz", "Rahman", "Hamdan", "Suleiman", "Qasim", "Jaber"],
  ],
  chinese: [
    ["Wei", "Ming", "Jun", "Jie", "Yong", "Tao", "Hua", "Lei", "Bin", "Hui"],
    ["Ping", "Hong", "Yan", "Na", "Fang", "Ying", "Xia", "Min", "Jing", "Lin"],
    ["Wang", "Li", "Zhang", "Liu", "Chen", "Yang", "Huang", "Zhao", "Wu", "Zhou"],
    ["Xu", "Sun", "Ma", "Zhu", "Hu", "Guo", "He", "Lin", "Gao", "Luo"],
  ],
  russian: [
    ["Aleksandr", "Sergey", "Dmitry", "Andrey", "Alexey", "Maksim", "Vladimir", "Ivan", "Mikhail", "Nikolai"],
    ["Elena", "Olga", "Natalia", "Tatiana", "Irina", "Svetlana", "Anna", "Oleg", "Viktor", "Igor"],
    ["Ivanov", "Smirnov", "Kuznetsov", "Popov", "Vasiliev", "Petrov", "Sokolov", "Mikhailov", "Novikov", "Fedorov"],
    ["Morozov", "Volkov", "Alekseev", "Lebedev", "Semenov", "Egorov", "Pavlov", "Kozlov", "Stepanov", "Nikolaev"],
  ],
};
console.log("\n| two-word names | n | homonyms (every word matched) | partial matches |\n|---|---:|---:|---:|");
for (const [culture, parts] of Object.entries(TWO)) {
  const [given, surnames] =
    parts.length === 2
      ? parts
      : [
          [...parts[0], ...parts[1]],
          [...parts[2], ...parts[3]],
        ];
  let total = 0;
  let homonyms = 0;
  let partial = 0;
  for (const g of given)
    for (const s of surnames) {
      total++;
      const [top] = screen(`${g} ${s}`);
      if (!top) continue;
      const e = top.hit.explanation;
      if (e.unmatched_query.length === 0 && e.unmatched_listed.length === 0) homonyms++;
      else partial++;
    }
  const pct = (k) => `${k} (${((100 * k) / total).toFixed(1)} %)`;
  console.log(`| ${culture} | ${total} | ${pct(homonyms)} | ${pct(partial)} |`);
}
