/**
 * Place names people say instead of an IANA zone (东京, New York, 英国), in Chinese and English.
 * Shared vocabulary: the clock tool resolves them, and the offline planner finds them in a message
 * (「纽约那边几点了」) without guessing at the words around them.
 */

/**
 * Each zone with the names that mean it. A country with several zones is listed under the zone most
 * of its people live in; the tool's answer names the zone, so the user sees which one was meant.
 */
const ZONES: ReadonlyArray<readonly [zone: string, ...names: string[]]> = [
  ['Asia/Shanghai', '北京', '上海', '中国', '北京时间', '国内', '广州', '深圳', '杭州', '南京', '成都', '重庆', '武汉', '西安', '天津', '苏州',
    '长沙', '郑州', '青岛', '厦门', '大连', '沈阳', '哈尔滨', '昆明', '乌鲁木齐', '拉萨',
    'beijing', 'shanghai', 'china', 'guangzhou', 'shenzhen', 'hangzhou', 'nanjing', 'chengdu', 'chongqing', 'wuhan', "xi'an", 'tianjin'],
  ['Asia/Hong_Kong', '香港', 'hong kong', 'hongkong'],
  ['Asia/Macau', '澳门', 'macau', 'macao'],
  ['Asia/Taipei', '台北', '台湾', '高雄', 'taipei', 'taiwan'],
  ['Asia/Tokyo', '东京', '日本', '大阪', '京都', '名古屋', '札幌', '福冈', '横滨', '冲绳',
    'tokyo', 'japan', 'osaka', 'kyoto', 'nagoya', 'sapporo', 'fukuoka', 'yokohama', 'okinawa'],
  ['Asia/Seoul', '首尔', '韩国', '釜山', '济州岛', 'seoul', 'south korea', 'korea', 'busan'],
  ['Asia/Pyongyang', '平壤', '朝鲜', 'pyongyang', 'north korea'],
  ['Asia/Ulaanbaatar', '乌兰巴托', '蒙古', 'ulaanbaatar', 'mongolia'],
  ['Asia/Singapore', '新加坡', 'singapore'],
  ['Asia/Kuala_Lumpur', '吉隆坡', '马来西亚', '槟城', 'kuala lumpur', 'malaysia', 'penang'],
  ['Asia/Bangkok', '曼谷', '泰国', '清迈', '普吉岛', 'bangkok', 'thailand', 'chiang mai', 'phuket'],
  ['Asia/Jakarta', '雅加达', '印度尼西亚', '印尼', 'jakarta', 'indonesia'],
  ['Asia/Makassar', '巴厘岛', 'bali'],
  ['Asia/Manila', '马尼拉', '菲律宾', 'manila', 'philippines'],
  ['Asia/Ho_Chi_Minh', '河内', '越南', '胡志明市', '胡志明', 'hanoi', 'vietnam', 'ho chi minh city', 'saigon'],
  ['Asia/Phnom_Penh', '金边', '柬埔寨', 'phnom penh', 'cambodia'],
  ['Asia/Yangon', '仰光', '缅甸', 'yangon', 'myanmar'],
  ['Asia/Kolkata', '新德里', '德里', '孟买', '印度', '班加罗尔', '加尔各答', '金奈',
    'new delhi', 'delhi', 'mumbai', 'bombay', 'india', 'bangalore', 'bengaluru', 'kolkata', 'calcutta', 'chennai'],
  ['Asia/Kathmandu', '加德满都', '尼泊尔', 'kathmandu', 'nepal'],
  ['Asia/Dhaka', '达卡', '孟加拉国', '孟加拉', 'dhaka', 'bangladesh'],
  ['Asia/Karachi', '卡拉奇', '伊斯兰堡', '巴基斯坦', 'karachi', 'islamabad', 'pakistan'],
  ['Asia/Colombo', '科伦坡', '斯里兰卡', 'colombo', 'sri lanka'],
  ['Indian/Maldives', '马尔代夫', 'maldives'],
  ['Asia/Dubai', '迪拜', '阿布扎比', '阿联酋', 'dubai', 'abu dhabi', 'uae'],
  ['Asia/Riyadh', '利雅得', '沙特阿拉伯', '沙特', 'riyadh', 'saudi arabia'],
  ['Asia/Qatar', '多哈', '卡塔尔', 'doha', 'qatar'],
  ['Asia/Tehran', '德黑兰', '伊朗', 'tehran', 'iran'],
  ['Asia/Jerusalem', '耶路撒冷', '特拉维夫', '以色列', 'jerusalem', 'tel aviv', 'israel'],
  ['Europe/Istanbul', '伊斯坦布尔', '安卡拉', '土耳其', 'istanbul', 'ankara', 'turkey'],
  ['Africa/Cairo', '开罗', '埃及', 'cairo', 'egypt'],
  ['Africa/Johannesburg', '约翰内斯堡', '开普敦', '南非', 'johannesburg', 'cape town', 'south africa'],
  ['Africa/Lagos', '拉各斯', '尼日利亚', 'lagos', 'nigeria'],
  ['Africa/Nairobi', '内罗毕', '肯尼亚', 'nairobi', 'kenya'],
  ['Africa/Casablanca', '卡萨布兰卡', '摩洛哥', 'casablanca', 'morocco'],
  ['Europe/Moscow', '莫斯科', '圣彼得堡', '俄罗斯', 'moscow', 'saint petersburg', 'st petersburg', 'russia'],
  ['Europe/London', '伦敦', '英国', '曼彻斯特', '爱丁堡', '利物浦', '牛津', '剑桥',
    'london', 'united kingdom', 'uk', 'britain', 'england', 'manchester', 'edinburgh', 'liverpool', 'oxford', 'cambridge'],
  ['Europe/Dublin', '都柏林', '爱尔兰', 'dublin', 'ireland'],
  ['Europe/Lisbon', '里斯本', '葡萄牙', 'lisbon', 'portugal'],
  ['Europe/Paris', '巴黎', '法国', '里昂', 'paris', 'france', 'lyon'],
  ['Europe/Berlin', '柏林', '德国', '慕尼黑', '法兰克福', 'berlin', 'germany', 'munich', 'frankfurt', 'hamburg'],
  ['Europe/Rome', '罗马', '意大利', '米兰', '威尼斯', '佛罗伦萨', 'rome', 'italy', 'milan', 'venice', 'florence'],
  ['Europe/Madrid', '马德里', '西班牙', '巴塞罗那', 'madrid', 'spain', 'barcelona'],
  ['Europe/Amsterdam', '阿姆斯特丹', '荷兰', 'amsterdam', 'netherlands', 'holland'],
  ['Europe/Brussels', '布鲁塞尔', '比利时', 'brussels', 'belgium'],
  ['Europe/Zurich', '苏黎世', '日内瓦', '瑞士', 'zurich', 'geneva', 'switzerland'],
  ['Europe/Vienna', '维也纳', '奥地利', 'vienna', 'austria'],
  ['Europe/Prague', '布拉格', '捷克', 'prague', 'czech republic', 'czechia'],
  ['Europe/Warsaw', '华沙', '波兰', 'warsaw', 'poland'],
  ['Europe/Budapest', '布达佩斯', '匈牙利', 'budapest', 'hungary'],
  ['Europe/Stockholm', '斯德哥尔摩', '瑞典', 'stockholm', 'sweden'],
  ['Europe/Oslo', '奥斯陆', '挪威', 'oslo', 'norway'],
  ['Europe/Copenhagen', '哥本哈根', '丹麦', 'copenhagen', 'denmark'],
  ['Europe/Helsinki', '赫尔辛基', '芬兰', 'helsinki', 'finland'],
  ['Europe/Athens', '雅典', '希腊', 'athens', 'greece'],
  ['Europe/Kyiv', '基辅', '乌克兰', 'kyiv', 'kiev', 'ukraine'],
  ['Atlantic/Reykjavik', '雷克雅未克', '冰岛', 'reykjavik', 'iceland'],
  ['America/New_York', '纽约', '美国东部', '美东', '美国', '华盛顿', '波士顿', '费城', '迈阿密', '亚特兰大',
    'new york city', 'new york', 'nyc', 'washington dc', 'washington', 'boston', 'philadelphia', 'miami', 'atlanta', 'florida', '佛罗里达', '纽约州',
    'eastern time', 'usa', 'united states', 'america', 'est', 'edt'],
  ['America/Toronto', '多伦多', '渥太华', '蒙特利尔', '加拿大', 'toronto', 'ottawa', 'montreal', 'canada'],
  ['America/Chicago', '芝加哥', '休斯顿', '达拉斯', '奥斯汀', '美国中部', '德州', '得克萨斯', 'chicago', 'houston', 'dallas', 'austin', 'texas', 'central time'],
  ['America/Denver', '丹佛', '盐湖城', 'denver', 'salt lake city', 'mountain time'],
  ['America/Phoenix', '凤凰城', 'phoenix'],
  ['America/Los_Angeles', '洛杉矶', '旧金山', '西雅图', '圣迭戈', '圣何塞', '拉斯维加斯', '硅谷', '美国西部', '美西', '加州', '加利福尼亚',
    'los angeles', 'san francisco', 'seattle', 'san diego', 'san jose', 'las vegas', 'silicon valley', 'bay area', 'california', 'pacific time', 'pst', 'pdt'],
  ['America/Vancouver', '温哥华', 'vancouver'],
  ['America/Anchorage', '安克雷奇', '阿拉斯加', 'anchorage', 'alaska'],
  ['Pacific/Honolulu', '檀香山', '火奴鲁鲁', '夏威夷', 'honolulu', 'hawaii'],
  ['America/Mexico_City', '墨西哥城', '墨西哥', 'mexico city', 'mexico'],
  ['America/Havana', '哈瓦那', '古巴', 'havana', 'cuba'],
  ['America/Bogota', '波哥大', '哥伦比亚', 'bogota', 'colombia'],
  ['America/Lima', '利马', '秘鲁', 'lima', 'peru'],
  ['America/Santiago', '圣地亚哥', '智利', 'santiago', 'chile'],
  ['America/Sao_Paulo', '圣保罗', '里约热内卢', '巴西', 'sao paulo', 'são paulo', 'rio de janeiro', 'brazil'],
  ['America/Argentina/Buenos_Aires', '布宜诺斯艾利斯', '阿根廷', 'buenos aires', 'argentina'],
  ['Australia/Sydney', '悉尼', '堪培拉', '澳大利亚', '澳洲', 'sydney', 'canberra', 'australia'],
  ['Australia/Melbourne', '墨尔本', 'melbourne'],
  ['Australia/Brisbane', '布里斯班', 'brisbane'],
  ['Australia/Perth', '珀斯', 'perth'],
  ['Australia/Adelaide', '阿德莱德', 'adelaide'],
  ['Pacific/Auckland', '奥克兰', '惠灵顿', '新西兰', 'auckland', 'wellington', 'new zealand'],
  ['UTC', 'utc', 'gmt', '协调世界时', '世界时', '格林尼治', '格林威治', 'greenwich', 'zulu'],
];

/** How a name is looked up: case, spaces, underscores and a trailing 市 / 时间 / "time" do not matter. */
export const placeKey = (word: string): string =>
  word.toLowerCase().replace(/\s*(?:时间|time)$/, '').replace(/[\s_]+/g, '').replace(/(?<=[\u4e00-\u9fff]{2})市$/, '');

const BY_KEY: ReadonlyMap<string, string> = new Map(ZONES.flatMap(([zone, ...names]) => names.map((n) => [placeKey(n), zone] as const)));

/** The IANA zone a place name means (东京, New York, 上海市), or undefined when it is not one we know. */
export const zoneOfPlace = (word: string): string | undefined => BY_KEY.get(placeKey(word));

const NAMES = ZONES.flatMap(([, ...names]) => names).sort((a, b) => b.length - a.length);
const escape = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
// Chinese names stand anywhere (「东京现在几点」); English ones only as whole words ("Turkey", not "turkeys").
const PLACE_NAME = new RegExp(
  NAMES.map((n) => (/^[\u4e00-\u9fff]/.test(n) ? escape(n) : `\\b${escape(n).replace(/ /g, '\\s+')}\\b`)).join('|'),
  'gi',
);

/** A place name found in a message: as written there, and where. */
export interface PlaceMention {
  text: string;
  index: number;
  zone: string;
}

/** The known place names in a message, in order, longest first where two overlap (印度尼西亚, not 印度). */
export function placesIn(text: string): PlaceMention[] {
  const out: PlaceMention[] = [];
  for (const m of text.matchAll(PLACE_NAME)) {
    const zone = zoneOfPlace(m[0]);
    if (zone) out.push({ text: m[0], index: m.index ?? 0, zone });
  }
  return out;
}
