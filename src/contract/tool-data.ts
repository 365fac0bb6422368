/**
 * What a tool's result says as data, beside the text the model reads: the todo list, the forecast,
 * whether the call failed and how. Code that acts on a result (the offline planner) reads this, so a
 * change in a tool's wording cannot change what it does. Never sent to a model provider.
 */
import { z } from 'zod';
import { ToolErrorKind } from './tool-error.js';

/** One item of the todo list, as todo_list shows it. */
export const TodoItemData = z.object({
  /** The number the list shows and todo_done / todo_delete take; it never changes. */
  number: z.number().int().positive(),
  /** The item's words, without its due date. */
  content: z.string(),
  done: z.boolean(),
  /** When it is due, as stored (a date for relative days), or null. */
  due: z.string().nullable(),
});
export type TodoItemData = z.infer<typeof TodoItemData>;

/** todo_list's result: the items it showed, in order. */
export const TodoListData = z.object({
  kind: z.literal('todo_list'),
  status: z.enum(['pending', 'done', 'all']),
  items: z.array(TodoItemData),
});
export type TodoListData = z.infer<typeof TodoListData>;

/** The figures of one part of a weather report, with its words as the report gives them. */
export const WeatherFiguresData = z.object({
  /** The words after the part's label, e.g. 「中雨，23.9～30.2°C，降水概率 85%」. */
  text: z.string(),
  /** °C (or the service's unit), to one decimal, as the text shows it. */
  temp: z.number().optional(),
  min: z.number().optional(),
  max: z.number().optional(),
  /** Chance of rain, %. */
  rainChance: z.number().optional(),
  /** Rain, snow, showers or a storm. */
  wet: z.boolean(),
});
export type WeatherFiguresData = z.infer<typeof WeatherFiguresData>;

const IsoDate = z.string().regex(/^\d{4}-\d{2}-\d{2}$/);

/** weather's result: the place, now, today and the coming days the report lists. */
export const WeatherData = z.object({
  kind: z.literal('weather'),
  /** The report's first line: the place with its region, 「北京市（北京，中国）」. */
  place: z.string(),
  /** The current conditions, with the whole line the report gives them in. */
  now: WeatherFiguresData.extend({ line: z.string() }).optional(),
  /** Today's forecast and its line; `date` when the service dated it. */
  today: WeatherFiguresData.extend({ line: z.string(), date: IsoDate.optional() }).optional(),
  /** The line of advice (umbrella, coat). */
  advice: z.string().optional(),
  /** The coming days, dated, in order. */
  days: z.array(WeatherFiguresData.extend({ date: IsoDate })),
});
export type WeatherData = z.infer<typeof WeatherData>;

/** A tool's data, by kind. */
export const ToolData = z.discriminatedUnion('kind', [TodoListData, WeatherData]);
export type ToolData = z.infer<typeof ToolData>;

/** What a tool result says beside its text: whether it worked, how it failed, and the tool's data. */
export const ToolResultData = z.object({
  ok: z.boolean(),
  /** Set when `ok` is false. */
  error: ToolErrorKind.optional(),
  data: ToolData.optional(),
});
export type ToolResultData = z.infer<typeof ToolResultData>;
