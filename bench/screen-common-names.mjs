/**
 * Offline measure of the common-names discount (issue 21): innocent Spanish names recombined from INE's
 * ranking of the most frequent given names and surnames (population register 2023,
 * https://www.ine.es/dyngs/INEbase/es/operacion.htm?c=Estadistica_C&cid=1254736177009): one given name and two
 * different surnames, 570 names. A hit at 0.7 is a false positive. The ranking is also where the Spanish
 * part of src/engines/screen/common-names.ts comes from, so this shows the mechanism at work, not a held-out
 * rate. Run `node_modules/.bin/node bench/screen-common-names.mjs [checkout]`.
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
