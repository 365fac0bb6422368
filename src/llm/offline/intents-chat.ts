/** Rules that answer without a tool: greetings, help, thanks, feelings, code. (The user's name is a memory: intents-memory.ts.) */
import { clearlyOutOfScope, nearestTo } from './out-of-scope.js';
import { PRIORITY, reply, type Intent, type Reply } from './intent.js';

/** A rule that fires when the whole message is one of a few set phrases. */
function whole(id: string, pattern: RegExp, r: Reply, priority: number = PRIORITY.chat): Intent {
  return { id, priority, match: (u) => (pattern.test(u.norm) ? reply(r) : null) };
}

const END = `(?:\\s|[!.,~。～…]|呀|啊|哇|呢|哈|啦|知行|zhixing|there)*$`;
const GREETING = new RegExp(
  `^(?:你好|您好|嗨|哈喽|哈啰|嘿|喂|早上好|早安|上午好|中午好|下午好|晚上好|在吗|在不在|hello|hi|hey|hiya|yo|good (?:morning|afternoon|evening)|greetings)+${END}`,
  'i',
);
const HELP =
  /你(?:能|会|可以)(?:帮我)?(?:做|干)?(?:什么|啥|嘛)|能帮我(?:做|干)(?:什么|啥|嘛)|有什么功能|有哪些功能|怎么用|帮助|使用说明|你是谁|介绍一下你自己|^help\b|\bwhat can you do\b|\bwhat do you do\b|\bhow do i use\b|\bwho are you\b|\bintroduce yourself\b/i;
const THANKS = new RegExp(
  `^(?:好的?|嗯)?[,，\\s]*(?:谢谢你?|多谢|感谢|谢啦|谢了|3q|thanks|thank you|thx|ty)(?:\\s*(?:a lot|so much|very much))?${END}`,
  'i',
);
const BYE = new RegExp(`^(?:再见|拜拜|回头见|下次见|晚安|bye|goodbye|bye bye|see you|good night)${END}`, 'i');
const ACK = new RegExp(
  `^(?:算了|没事了?|好的?|好吧|嗯嗯?|哦|噢|ok|okay|行|可以|收到|明白了?|知道了|好嘞|cool|great|nice|got it|sure)${END}`,
  'i',
);
const MOOD =
  /心情不好|心情很差|心情差|难过|伤心|不开心|不高兴|郁闷|烦死|好烦|很烦|焦虑|压力(?:好|很|太)?大|好累|很累|太累|崩溃|孤独|沮丧|想哭|\bemo\b|\b(?:sad|upset|depressed|stressed|anxious|lonely|exhausted|unhappy)\b|\bfeel(?:ing)? (?:bad|down|awful|terrible|low)\b|\bbad day\b/i;

const UNDO = new RegExp(
  `^(?:请|帮我|把)?(?:撤销|撤回|还原|恢复)(?:一下)?(?:刚才|刚刚|上一步|上一轮|上次)?(?:的|做的)?(?:操作|改动|修改|更改)?(?:吧)?${END}|^(?:please\\s+)?(?:undo|revert)(?:\\s+(?:that|it|this|the last (?:change|changes|turn|step)|what you (?:just )?did))?${END}`,
  'i',
);

// Code handed to "the calculator" or typed alone: refuse plainly instead of passing it anywhere.
const CODE =
  /__\w+__|\bimport\s*\(|\bimport\s+(?:os|sys|subprocess|shutil|socket|ctypes)\b|\bfrom\s+\w+\s+import\b|\b(?:os|sys|subprocess|child_process|shutil)\.\w+|\b(?:exec|eval|system|spawn|popen|require|compile|open|getattr)\s*\(|\bprocess\.(?:env|exit|kill|binding|mainModule)\b|\brm\s+-rf\b|\$\(|;\s*(?:rm|del|shutdown)\b/i;

export const CODE_INTENTS: Intent[] = [whole('code_refusal', CODE, { kind: 'codeRefusal' }, PRIORITY.code)];

/** Translating, essays, music, calls: honestly not here, with the nearest thing that is. */
const outOfScope: Intent = {
  id: 'out_of_scope',
  priority: PRIORITY.outOfScope,
  match(u) {
    if (!clearlyOutOfScope(u)) return null;
    const near = nearestTo(u);
    return reply(near ? { kind: 'cannot', near } : { kind: 'cannot' });
  },
};
export const OUT_OF_SCOPE_INTENTS: Intent[] = [outOfScope];
export const CHAT_INTENTS: Intent[] = [
  whole('greeting', GREETING, { kind: 'greeting' }),
  whole('help', HELP, { kind: 'help' }),
  whole('thanks', THANKS, { kind: 'thanks' }),
  whole('bye', BYE, { kind: 'bye' }),
  whole('ack', ACK, { kind: 'ack' }),
  whole('mood', MOOD, { kind: 'mood' }),
  whole('undo_hint', UNDO, { kind: 'undoHint' }),
];
