/**
 * The weather tool's answer as the planner reads it: the place line, the current conditions, today's
 * forecast, the advice, and each coming day, with the figures the planner compares (temperature,
 * low/high, chance of rain). Taken from the result's data; a result without data (stored before
 * results carried it) is read from its text, in either language.
 */
import { parseIsoDate, type Day } from './calendar.js';
import type { ToolResultData, WeatherData } from '../../contract/tool-data.js';
import { dataOf } from './tool-results.js';

/** Figures of one line of the report. */
export interface WeatherFigures {
  /** The line's words after its label: 「中雨，23.9～30.2°C，降水概率 85%」. */
  text: string;
  temp?: number;
  min?: number;
  max?: number;
  rainChance?: number;
  /** Rain, snow, showers or a storm named. */
  wet: boolean;
}

export interface DayForecast extends WeatherFigures {
  day: Day;
}

export interface WeatherReport {
  /** The place as the service named it, with its region: 「北京市（北京，中国）」. */
  place: string;
  now?: WeatherFigures & { line: string };
  /** Today's forecast; `day` when the tool dated it. */
  today?: WeatherFigures & { line: string; day?: Day };
  advice?: string;
  /** The coming days, dated. */
  days: DayForecast[];
}

const NOW = /^(?:当前|Now)(?:\s*[（(][^）)]*[）)])?[：:]\s*(.*)$/;
const TODAY = /^(?:今天|Today)(?:\s*[（(](\d{4}-\d{2}-\d{2})[^）)]*[）)])?[：:]\s*(.*)$/;
const DAY = /^(\d{4}-\d{2}-\d{2}) [^：:]+[：:]\s*(.*)$/;
const ADVICE = /^(?:建议|Advice)[：:]/;
const RANGE = /(-?\d+(?:\.\d+)?)[～–](-?\d+(?:\.\d+)?)°/;
const HIGH = /(?:最高|high) (-?\d+(?:\.\d+)?)°/;
const LOW = /(?:最低|low) (-?\d+(?:\.\d+)?)°/;
const TEMP_ZH = /气温 (-?\d+(?:\.\d+)?)°/;
const TEMP_EN = /(?:^|, )(-?\d+(?:\.\d+)?)°/;
const RAIN_CHANCE = /(?:降水概率|chance of rain) (\d+(?:\.\d+)?)%/;
const WET = /雨|雪|雷|冰雹|\brain\b|\bsnow|drizzle|shower|thunder|hail/i;

const number = (m: RegExpExecArray | null): number | undefined => (m ? Number(m[1]) : undefined);

function figures(text: string): WeatherFigures {
  const range = RANGE.exec(text);
  return {
    text,
    temp: number(TEMP_ZH.exec(text) ?? TEMP_EN.exec(text)),
    min: range ? Number(range[1]) : number(LOW.exec(text)),
    max: range ? Number(range[2]) : number(HIGH.exec(text)),
    rainChance: number(RAIN_CHANCE.exec(text)),
    wet: WET.test(text.replace(RAIN_CHANCE, '')),
  };
}

/** The report a weather result gives: its data, else what its text says; undefined when it is no report. */
export function weatherOf(output: string, result?: ToolResultData): WeatherReport | undefined {
  const data = dataOf(result, 'weather');
  return data ? fromData(data) : readWeather(output);
}

function fromData(data: WeatherData): WeatherReport | undefined {
  const { now, today } = data;
  const report: WeatherReport = {
    place: data.place,
    now,
    today: today && { ...today, day: today.date ? parseIsoDate(today.date) : undefined },
    advice: data.advice,
    days: data.days.flatMap((d) => {
      const day = parseIsoDate(d.date);
      return day ? [{ ...d, day }] : [];
    }),
  };
  return report.now || report.today || report.days.length ? report : undefined;
}

/** The report the weather tool wrote, or undefined when the text is not one. */
export function readWeather(output: string): WeatherReport | undefined {
  const lines = output.split('\n');
  if (lines.length < 2) return undefined;
  const report: WeatherReport = { place: lines[0], days: [] };
  for (const line of lines.slice(1)) {
    let m: RegExpExecArray | null;
    if ((m = NOW.exec(line))) report.now = { ...figures(m[1]), line };
    else if ((m = TODAY.exec(line)))
      report.today = { ...figures(m[2]), line, day: m[1] ? parseIsoDate(m[1]) : undefined };
    else if (ADVICE.test(line)) report.advice = line;
    else if ((m = DAY.exec(line))) {
      const day = parseIsoDate(m[1]);
      if (day) report.days.push({ ...figures(m[2]), day });
    }
  }
  return report.now || report.today || report.days.length ? report : undefined;
}
