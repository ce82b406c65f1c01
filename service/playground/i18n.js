// The page's words, each in English and in Chinese side by side (none can be left out of
// one). Static labels carry data-i18n (text) or data-i18n-label (aria-label); what is drawn
// later asks t(). Pattern names come from the API (`name` and `chinese`), never from here.

const WORDS = {
  title: ["Zung Jung calculator", "中庸麻雀計分"],
  other_language: ["中文", "English"],
  hand_heading: ["Build a hand", "組牌"],
  hand_label: ["Hand", "手牌"],
  hand_help: ["Digits, then m, p, s or z. Melds in [ ], a concealed kong in { }. The last tile is the winning tile.", "數字後接 m（萬）、p（筒）、s（索）或 z（字）；副露寫在 [ ] 內，暗槓寫在 { } 內。最後一張是和牌。"],
  melds: ["Melds", "副露"],
  held: ["Tiles held", "手中的牌"],
  palette: ["Tiles to add", "加牌"],
  tap_legend: ["A tap on a tile of the hand:", "點手牌："],
  remove: ["Removes it", "拿走"],
  winning: ["Winning tile", "和牌"],
  chow: ["Chow", "上"],
  pung: ["Pung", "碰"],
  kong: ["Kong", "明槓"],
  concealed_kong: ["Concealed kong", "暗槓"],
  clear: ["Clear the hand", "清除手牌"],
  win_heading: ["Win", "和牌"],
  win_by: ["Won by", "和法"],
  self_draw: ["Self-draw", "自摸"],
  discard: ["Discard", "食出銃"],
  seat: ["Winner's seat", "和牌者座位"],
  discarder: ["Discarder", "出銃者"],
  last_tile: ["Last tile", "海底"],
  kong_replacement: ["Kong replacement", "槓上開花"],
  robbing_kong: ["Robbing a kong", "搶槓"],
  first_turn: ["First turn", "天和／地和"],
  rules_heading: ["Rules", "規則"],
  version: ["Version", "版本"],
  payoff: ["Payoff", "付款"],
  minimum: ["Minimum", "起和番"],
  bonus_tiles: ["Flowers and seasons", "花牌"],
  flower: ["Flower", "花"],
  season: ["Season", "季"],
  table_heading: ["At the table", "牌桌"],
  visible: ["Tiles seen on the table", "桌上見到的牌"],
  explain: ["Other readings", "其他拆法"],
  expect: ["Expected score (slower)", "期望得分（較慢）"],
  draws_left: ["Draws left", "餘下摸牌次數"],
  discard_rate: ["Discard rate", "放銃率"],
  answer_heading: ["Answer", "結果"],
  sheet_heading: ["Score sheet", "記分表"],
  players: ["Players", "玩家"],
  player: ["Player", "玩家"],
  add_hand: ["Add this hand", "記下此手"],
  add_draw: ["Add a draw", "記下流局"],
  move_seats: ["Move seats", "換莊"],
  claim_summary: ["Add a hand from ticked patterns", "以勾選番種記一手"],
  claim_help: ["The win above says who won and how.", "和牌者及和法見上方「和牌」。"],
  add_claim: ["Add the ticked patterns", "記下所勾番種"],
  undo_hand: ["Remove the last hand", "刪除最後一手"],
  export: ["Export", "匯出"],
  new_sheet: ["New sheet", "新記分表"],
  new_sheet_again: ["Press again to clear the sheet", "再按一次清除記分表"],
  export_label: ["The sheet as a /v1/settle body", "記分表（/v1/settle 請求）"],
  credit: ["Tile drawings:", "牌面繪圖："],
  api_docs: ["API documentation", "API 文件"],
  payoff_formal: ["Formal", "正式"],
  payoff_uniform: ["Uniform", "平均付"],
  payoff_discarder_pays_all: ["Discarder pays all", "出銃者全付"],
  payoff_discarder_pays_double: ["Discarder pays double", "出銃者付雙倍"],
  payoff_formal_double: ["Formal, excess doubled", "正式（超出部分加倍）"],
  E: ["East", "東"],
  S: ["South", "南"],
  W: ["West", "西"],
  N: ["North", "北"],
  dealer: ["dealer", "莊"],
  short_E: ["E", "東"],
  short_S: ["S", "南"],
  short_W: ["W", "西"],
  short_N: ["N", "北"],
  tiles_count: [(n) => `${n} tiles: 13 show the waits, 14 are scored.`, (n) => `${n} 張：13 張看聽牌，14 張計分。`],
  count_13: ["13 tiles: the waits.", "13 張：聽牌。"],
  count_14: ["14 tiles: the score and the discards.", "14 張：計分及打牌分析。"],
  score: ["Score", "分數"],
  points: ["Points", "番數合計"],
  limit: ["Limit", "上限"],
  limit_none: ["none", "無"],
  limit_capped: ["capped at the limit", "已封頂"],
  limit_single_pattern: ["one limit pattern", "單一滿貫番種"],
  payments: ["Payments", "付款"],
  pattern: ["Pattern", "番種"],
  value: ["Value", "番"],
  count: ["Count", "次數"],
  breakdown: ["Patterns counted", "計算番種"],
  not_counted: ["Held but not counted", "有但不計"],
  sets: ["Sets", "組合"],
  pair: ["Pair", "雀頭"],
  melds_apart: ["Melds", "副露"],
  readings: ["Other readings", "其他拆法"],
  none: ["none", "無"],
  shanten: ["Shanten", "向聽"],
  ready: ["ready", "聽牌"],
  complete: ["complete (score it)", "已和（請計分）"],
  useful: ["Useful tiles", "有效牌"],
  useful_remaining: ["Useful tiles left", "有效牌餘數"],
  waits: ["Waits", "聽牌"],
  tile: ["Tile", "牌"],
  remaining: ["Left", "餘"],
  cannot_win: ["cannot win", "不能和"],
  discards: ["Discards", "打牌分析"],
  discards_help: ["Best first. A tile opens its useful tiles and waits.", "最佳的在前。點牌可看有效牌及聽牌。"],
  expected_score: ["Expected score", "期望得分"],
  win_chance: ["Win chance", "和牌機會"],
  expect_exhaustive: ["Expected figures: exact under the solo model.", "期望數字：單人模型下的精確值。"],
  expect_bounded: ["Expected figures: lower bounds (the search kept to the shortest ways to ready).", "期望數字：下限（只搜尋最快聽牌的打法）。"],
  limited_too_far: ["A discard 4 or more from ready has none.", "離聽牌四步或以上的打法沒有數字。"],
  limited_budget: ["The search ran out of its budget for a discard without figures.", "沒有數字的打法超出了搜尋上限。"],
  no_waits: ["No tile completes this hand.", "沒有牌能和此手。"],
  hand_no: ["Hand", "手"],
  winner: ["Winner", "和牌者"],
  draw: ["Draw", "流局"],
  claim: ["ticked", "勾選"],
  totals: ["Totals", "合計"],
  empty_sheet: ["No hand yet.", "尚未記分。"],
  standard: ["Standard", "一般"],
  seven_pairs: ["Seven Pairs", "七對"],
  thirteen_terminals: ["Thirteen Terminals", "十三么九"],
  "Trivial Patterns": ["Trivial Patterns", "一、雞和類"],
  "One-Suit Patterns": ["One-Suit Patterns", "二、一色類"],
  "Honor Tiles": ["Honor Tiles", "三、番子類"],
  "Triplets and Kong": ["Triplets and Kong", "四、刻槓類"],
  "Identical Sets": ["Identical Sets", "五、一般高類"],
  "Similar Sets": ["Similar Sets", "六、兄弟類"],
  "Consecutive Sets": ["Consecutive Sets", "七、順子類"],
  Terminals: ["Terminals", "八、么九類"],
  "Incidental Bonuses": ["Incidental Bonuses", "九、偶然類"],
  "Irregular Hands": ["Irregular Hands", "十、特殊類"],
  "Bonus Tiles": ["Bonus Tiles", "十一、花類"],
};

export const LANGUAGES = ["en", "zh"];
let language = "en";

export const current = () => language;

export function t(key, ...args) {
  const word = WORDS[key]?.[LANGUAGES.indexOf(language)];
  if (word === undefined) throw new Error(`no word for ${key}`);
  return typeof word === "function" ? word(...args) : word;
}

// A pattern's name in the page's language, from the API's answer.
export const patternName = (pattern) => (language === "zh" ? pattern.chinese : pattern.name);

export function use(chosen, root = document) {
  language = LANGUAGES.includes(chosen) ? chosen : "en";
  root.documentElement.lang = language === "zh" ? "zh-Hant" : "en";
  for (const element of root.querySelectorAll("[data-i18n]")) element.textContent = t(element.dataset.i18n);
  for (const element of root.querySelectorAll("[data-i18n-label]")) {
    element.setAttribute("aria-label", t(element.dataset.i18nLabel));
  }
  const switcher = root.getElementById("language");
  switcher.lang = language === "zh" ? "en" : "zh-Hant";
}
