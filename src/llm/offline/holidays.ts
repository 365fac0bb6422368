/**
 * Named days people count towards (「离国庆还有几天」, "days until Christmas"), Chinese and English:
 * fixed dates, lunar ones through the Chinese calendar, and the ones defined by a weekday of a month.
 */
import { addDays, daysBetween, easter, nextLunar, nthWeekday, qingming, type Day } from './calendar.js';

export interface Holiday {
  id: string;
  zh: string;
  en: string;
  /** The holiday's next date on or after `today`. */
  next(today: Day): Day | undefined;
}

/** This year's date if it is still to come, else next year's. */
const yearly =
  (on: (year: number) => Day) =>
  (today: Day): Day => {
    const d = on(today.year);
    return daysBetween(today, d) >= 0 ? d : on(today.year + 1);
  };
const fixed = (month: number, day: number) => yearly((year) => ({ year, month, day }));
/** A lunar date: the next day on or after today that the Chinese calendar calls `month`/`day`. */
const lunar =
  (month: number, day: number) =>
  (today: Day): Day | undefined =>
    nextLunar(today, month, day);

/**
 * 正月初一 where ICU's Chinese calendar disagrees with the official one (Purple Mountain Observatory):
 * in these years the new moon falls minutes from midnight in Beijing and ICU puts it on the wrong day.
 */
const SPRING_FESTIVAL_FIXES: Readonly<Record<number, Day>> = {
  2027: { year: 2027, month: 2, day: 6 },
  2030: { year: 2030, month: 2, day: 3 },
};

function springFestival(year: number): Day | undefined {
  return SPRING_FESTIVAL_FIXES[year] ?? nextLunar({ year, month: 1, day: 15 }, 1, 1);
}

/** A day of the first lunar month (初一 = 1, 元宵 = 15; 0 is 除夕), counted from 春节. */
const firstMonth =
  (day: number) =>
  (today: Day): Day | undefined => {
    for (const year of [today.year, today.year + 1]) {
      const start = springFestival(year);
      const d = start && addDays(start, day - 1);
      if (d && daysBetween(today, d) >= 0) return d;
    }
    return undefined;
  };

/** The holidays, with the words that name them; the longest words are tried first. */
const HOLIDAYS: ReadonlyArray<Holiday & { words: RegExp }> = [
  {
    id: 'newYearsEve',
    zh: '跨年夜',
    en: "New Year's Eve",
    next: fixed(12, 31),
    words: /跨年夜?|\bnew\s+year'?s\s+eve\b|\bnye\b/i,
  },
  {
    id: 'newYear',
    zh: '元旦',
    en: "New Year's Day",
    next: fixed(1, 1),
    words: /元旦|新年(?!快乐)|\bnew\s+year'?s(?:\s+day)?\b|\bnew\s+year\b/i,
  },
  {
    id: 'valentine',
    zh: '情人节',
    en: "Valentine's Day",
    next: fixed(2, 14),
    words: /(?<!七夕)情人节|\bvalentine'?s(?:\s+day)?\b/i,
  },
  {
    id: 'womensDay',
    zh: '妇女节',
    en: "Women's Day",
    next: fixed(3, 8),
    words: /妇女节|三八节|女神节|\bwomen'?s\s+day\b/i,
  },
  { id: 'arborDay', zh: '植树节', en: 'Arbor Day (China)', next: fixed(3, 12), words: /植树节/ },
  {
    id: 'aprilFools',
    zh: '愚人节',
    en: "April Fools' Day",
    next: fixed(4, 1),
    words: /愚人节|\bapril\s+fools?'?(?:\s+day)?\b/i,
  },
  {
    id: 'laborDay',
    zh: '劳动节',
    en: 'Labour Day (1 May)',
    next: fixed(5, 1),
    words: /劳动节|五一(?:假期|长假|节)?|\bmay\s+day\b/i,
  },
  { id: 'youthDay', zh: '青年节', en: 'Youth Day', next: fixed(5, 4), words: /青年节/ },
  {
    id: 'childrensDay',
    zh: '儿童节',
    en: "Children's Day",
    next: fixed(6, 1),
    words: /儿童节|六一|\bchildren'?s\s+day\b/i,
  },
  {
    id: 'independenceDay',
    zh: '美国独立日',
    en: 'Independence Day',
    next: fixed(7, 4),
    words: /美国独立日|\bindependence\s+day\b|\bfourth\s+of\s+july\b|\bjuly\s+4th\b/i,
  },
  { id: 'gaokao', zh: '高考', en: 'the gaokao (7 June)', next: fixed(6, 7), words: /高考|\bgaokao\b/i },
  { id: 'teachersDay', zh: '教师节', en: "Teachers' Day", next: fixed(9, 10), words: /教师节|\bteachers'?\s+day\b/i },
  {
    id: 'nationalDay',
    zh: '国庆节',
    en: 'National Day (1 October)',
    next: fixed(10, 1),
    words: /国庆(?:节|假期|长假)?|十一(?=假期|长假|黄金周)|\bnational\s+day\b/i,
  },
  { id: 'halloween', zh: '万圣节', en: 'Halloween', next: fixed(10, 31), words: /万圣节|\bhalloween\b/i },
  {
    id: 'singlesDay',
    zh: '双十一',
    en: "Singles' Day (11.11)",
    next: fixed(11, 11),
    words: /双十一|双11|光棍节|\bsingles'?\s+day\b/i,
  },
  { id: 'double12', zh: '双十二', en: '12.12', next: fixed(12, 12), words: /双十二|双12/ },
  {
    id: 'christmasEve',
    zh: '平安夜',
    en: 'Christmas Eve',
    next: fixed(12, 24),
    words: /平安夜|\bchristmas\s+eve\b|\bxmas\s+eve\b/i,
  },
  {
    id: 'christmas',
    zh: '圣诞节',
    en: 'Christmas',
    next: fixed(12, 25),
    words: /圣诞(?:节)?|\bchristmas(?:\s+day)?\b|\bxmas\b/i,
  },
  {
    id: 'mothersDay',
    zh: '母亲节',
    en: "Mother's Day",
    next: yearly((y) => nthWeekday(y, 5, 0, 2)),
    words: /母亲节|\bmother'?s\s+day\b/i,
  },
  {
    id: 'fathersDay',
    zh: '父亲节',
    en: "Father's Day",
    next: yearly((y) => nthWeekday(y, 6, 0, 3)),
    words: /父亲节|\bfather'?s\s+day\b/i,
  },
  {
    id: 'thanksgiving',
    zh: '感恩节',
    en: 'Thanksgiving',
    next: yearly((y) => nthWeekday(y, 11, 4, 4)),
    words: /感恩节|\bthanksgiving\b/i,
  },
  { id: 'easter', zh: '复活节', en: 'Easter', next: yearly(easter), words: /复活节|\beaster(?:\s+sunday)?\b/i },
  {
    id: 'qingming',
    zh: '清明节',
    en: 'Qingming Festival',
    next: yearly(qingming),
    words: /清明(?:节)?|\bqingming(?:\s+festival)?\b|\btomb[-\s]sweeping\s+day\b/i,
  },
  // 除夕 is the last day of the lunar year, the day before 春节, whether the twelfth month has 29 or 30 days.
  {
    id: 'lunarNewYearsEve',
    zh: '除夕',
    en: "Lunar New Year's Eve",
    next: firstMonth(0),
    words: /除夕(?:夜)?|大年三十|年三十|\blunar\s+new\s+year'?s\s+eve\b/i,
  },
  {
    id: 'springFestival',
    zh: '春节',
    en: 'Chinese New Year',
    next: firstMonth(1),
    words: /春节|过年|大年初一|农历新年|\b(?:chinese|lunar)\s+new\s+year\b|\bspring\s+festival\b/i,
  },
  {
    id: 'lantern',
    zh: '元宵节',
    en: 'the Lantern Festival',
    next: firstMonth(15),
    words: /元宵(?:节)?|\blantern\s+festival\b/i,
  },
  {
    id: 'dragonBoat',
    zh: '端午节',
    en: 'the Dragon Boat Festival',
    next: lunar(5, 5),
    words: /端午(?:节)?|\bdragon\s+boat(?:\s+festival)?\b/i,
  },
  { id: 'qixi', zh: '七夕', en: 'Qixi Festival', next: lunar(7, 7), words: /七夕(?:节|情人节)?|\bqixi\b/i },
  {
    id: 'midAutumn',
    zh: '中秋节',
    en: 'the Mid-Autumn Festival',
    next: lunar(8, 15),
    words: /中秋(?:节)?|\bmid-?\s*autumn(?:\s+festival)?\b|\bmoon\s+festival\b/i,
  },
  {
    id: 'chongyang',
    zh: '重阳节',
    en: 'the Double Ninth Festival',
    next: lunar(9, 9),
    words: /重阳(?:节)?|\bdouble\s+ninth\b/i,
  },
  { id: 'laba', zh: '腊八节', en: 'the Laba Festival', next: lunar(12, 8), words: /腊八(?:节)?|\blaba\b/i },
];

export interface HolidayMention {
  holiday: Holiday;
  index: number;
  length: number;
}

/** Every holiday named in a text, where. */
export function holidaysIn(text: string): HolidayMention[] {
  const out: HolidayMention[] = [];
  for (const h of HOLIDAYS) {
    for (const m of text.matchAll(new RegExp(h.words.source, 'gi')))
      out.push({ holiday: h, index: m.index ?? 0, length: m[0].length });
  }
  return out;
}
