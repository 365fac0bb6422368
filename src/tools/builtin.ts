import type { Config } from '../config/config.js';
import type { SkillCatalog } from '../skills/catalog.js';
import type { Store } from '../store/store.js';
import { calculatorTool } from './calculator.js';
import { createCurrentTimeTool } from './current-time.js';
import { fileListTool } from './file-list.js';
import { fileReadTool } from './file-read.js';
import { fileWriteTool } from './file-write.js';
import { createSkillTool } from './skill.js';
import { createTodoTools } from './todos.js';
import type { Tool } from './tool.js';
import { createWeatherTool } from './weather.js';

/** Every built-in tool, in the order the model sees them. */
export function builtinTools(deps: { config: Config; store: Store; skills: SkillCatalog }): Tool[] {
  return [
    calculatorTool,
    createCurrentTimeTool(),
    ...createTodoTools(deps.store.todos),
    fileReadTool,
    fileWriteTool,
    fileListTool,
    createWeatherTool({ geocodingUrl: deps.config.geocodingUrl, forecastUrl: deps.config.weatherUrl }),
    createSkillTool(deps.skills),
  ];
}
