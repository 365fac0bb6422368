/**
 * Areas and perimeters as students ask for them: a circle by its radius or diameter (「半径 5 的圆面积」),
 * a rectangle by length and width (「长 8 宽 5 的长方形周长」 "a 12 by 10 room"), a square by its side,
 * a triangle by base and height. π is written out, as the calculator knows no π.
 */
import { numberOf } from './numbers-in-text.js';

const PI = '3.141592653589793';
const N = '(\\d+(?:\\.\\d+)?|[一二两三四五六七八九十百]+)';
const IS = '\\s*(?:是|为|=|:|of|is|equals?)?\\s*';

const AREA = /面积|\barea\b|多大|how big/i;
const PERIMETER = /周长|\b(?:perimeter|circumference)\b|一圈|around it/i;
const RADIUS = new RegExp(`半径${IS}${N}|\\bradius${IS}${N}|${N}\\s*(?:cm|m|厘米|米)?\\s*的?半径`, 'i');
const DIAMETER = new RegExp(`直径${IS}${N}|\\bdiameter${IS}${N}|${N}\\s*(?:cm|m|厘米|米)?\\s*的?直径`, 'i');
const LENGTH_WIDTH = new RegExp(
  `(?:长|长度|\\blength)${IS}${N}[^\\d]{0,12}?(?:宽|宽度|\\bwidth)${IS}${N}|${N}\\s*(?:cm|m|米|厘米)?\\s*(?:[x×*]|\\bby\\b|乘)\\s*${N}`,
  'i',
);
const RECTANGLE =
  /长方形|矩形|房间|客厅|卧室|\b(?:rectangle|rectangular|room|garden|yard|field)\b|长.*宽|length.*width/i;
const SQUARE_SIDE = new RegExp(
  `(?:正方形|\\bsquare\\b(?! root))[^\\d]{0,12}?(?:边长|\\bside(?: length)?)?${IS}${N}|边长${IS}${N}[^\\d]{0,6}?的?正方形`,
  'i',
);
const TRIANGLE = new RegExp(`(?:底|底边|\\bbase)${IS}${N}[^\\d]{0,12}?(?:高|\\bheight)${IS}${N}`, 'i');

const first = (m: RegExpExecArray): number | undefined => numberOf(m.slice(1).find((g) => g !== undefined) ?? '');

/** The area or perimeter asked for, as an expression, or undefined. */
export function geometry(text: string): string | undefined {
  const area = AREA.test(text);
  const around = PERIMETER.test(text);
  if (!area && !around) return undefined;
  const radius = RADIUS.exec(text);
  const diameter = radius ? null : DIAMETER.exec(text);
  if (radius || diameter) {
    const r = radius ? first(radius) : first(diameter!);
    if (r === undefined) return undefined;
    const rs = radius ? String(r) : `(${r}/2)`;
    return area ? `${PI}*${rs}^2` : `2*${PI}*${rs}`;
  }
  if (/三角形|\btriangle\b/i.test(text)) {
    const t = TRIANGLE.exec(text);
    const [b, h] = t ? [numberOf(t[1]), numberOf(t[2])] : [];
    return area && b !== undefined && h !== undefined ? `${b}*${h}/2` : undefined;
  }
  const square = SQUARE_SIDE.exec(text);
  if (square) {
    const a = first(square);
    return a === undefined ? undefined : area ? `${a}^2` : `4*${a}`;
  }
  const lw = RECTANGLE.test(text) ? LENGTH_WIDTH.exec(text) : null;
  if (lw) {
    const [l, w] = lw[1] !== undefined ? [numberOf(lw[1]), numberOf(lw[2])] : [numberOf(lw[3]), numberOf(lw[4])];
    if (l === undefined || w === undefined) return undefined;
    return area ? `${l}*${w}` : `2*(${l}+${w})`;
  }
  return undefined;
}
