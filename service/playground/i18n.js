// The page's words in English and Chinese. Static labels carry data-i18n (text) or
// data-i18n-label (aria-label); what is drawn later asks t(). Pattern names come from the API
// (`name` and `chinese`), never from here.

const WORDS = {
  en: {
    title: "Zung Jung calculator", other_language: "中文", hand_heading: "Build a hand", hand_label: "Hand",
    hand_help: "Digits, then m, p, s or z. Melds in [ ], a concealed kong in { }. The last tile is the winning tile.",
    melds: "Melds", held: "Tiles held", palette: "Tiles to add", tap_legend: "A tap on a tile of the hand:",
    remove: "Removes it", winning: "Winning tile", chow: "Chow", pung: "Pung",
    kong: "Kong", concealed_kong: "Concealed kong", clear: "Clear the hand",
    win_heading: "Win", win_by: "Won by", self_draw: "Self-draw", discard: "Discard",
    seat: "Winner's seat", discarder: "Discarder", last_tile: "Last tile",
    kong_replacement: "Kong replacement", robbing_kong: "Robbing a kong", first_turn: "First turn",
    rules_heading: "Rules", version: "Version", payoff: "Payoff", minimum: "Minimum",
    bonus_tiles: "Flowers and seasons", flower: "Flower", season: "Season",
    table_heading: "At the table", visible: "Tiles seen on the table", explain: "Other readings",
    expect: "Expected score (slower)", draws_left: "Draws left", discard_rate: "Discard rate",
    answer_heading: "Answer", sheet_heading: "Score sheet", players: "Players", player: "Player",
    add_hand: "Add this hand", add_draw: "Add a draw", move_seats: "Move seats",
    claim_summary: "Add a hand from ticked patterns", claim_help: "The win above says who won and how.",
    add_claim: "Add the ticked patterns", undo_hand: "Remove the last hand", export: "Export",
    new_sheet: "New sheet", new_sheet_again: "Press again to clear the sheet",
    export_label: "The sheet as a /v1/settle body", credit: "Tile drawings:", api_docs: "API documentation",
    payoff_formal: "Formal", payoff_uniform: "Uniform", payoff_discarder_pays_all: "Discarder pays all",
    payoff_discarder_pays_double: "Discarder pays double", payoff_formal_double: "Formal, excess doubled",
    E: "East", S: "South", W: "West", N: "North", dealer: "dealer",
    short_E: "E", short_S: "S", short_W: "W", short_N: "N",
    tiles_count: (n) => `${n} tiles: 13 show the waits, 14 are scored.`,
    count_13: "13 tiles: the waits.", count_14: "14 tiles: the score and the discards.",
    score: "Score", points: "Points", limit: "Limit", limit_none: "none", limit_capped: "capped at the limit",
    limit_single_pattern: "one limit pattern", payments: "Payments", pattern: "Pattern", value: "Value",
    count: "Count", breakdown: "Patterns counted", not_counted: "Held but not counted", sets: "Sets", pair: "Pair", melds_apart: "Melds",
    readings: "Other readings", none: "none", shanten: "Shanten", ready: "ready", complete: "complete (score it)",
    useful: "Useful tiles", useful_remaining: "Useful tiles left", waits: "Waits", tile: "Tile",
    remaining: "Left", cannot_win: "cannot win", discards: "Discards", expected_score: "Expected score",
    win_chance: "Win chance",
    expect_exhaustive: "Expected figures: exact under the solo model.",
    expect_bounded: "Expected figures: lower bounds (the search kept to the shortest ways to ready).",
    limited_too_far: "A discard 4 or more from ready has none.",
    limited_budget: "The search ran out of its budget for a discard without figures.", no_waits: "No tile completes this hand.", hand_no: "Hand",
    winner: "Winner", draw: "Draw", claim: "ticked", totals: "Totals", empty_sheet: "No hand yet.",
    standard: "Standard", seven_pairs: "Seven Pairs", thirteen_terminals: "Thirteen Terminals",
    "Trivial Patterns": "Trivial Patterns", "One-Suit Patterns": "One-Suit Patterns",
    "Honor Tiles": "Honor Tiles", "Triplets and Kong": "Triplets and Kong",
    "Identical Sets": "Identical Sets", "Similar Sets": "Similar Sets",
    "Consecutive Sets": "Consecutive Sets", Terminals: "Terminals", "Incidental Bonuses": "Incidental Bonuses",
    "Irregular Hands": "Irregular Hands", "Bonus Tiles": "Bonus Tiles",
  },
  zh: {
    title: "中庸麻雀計分", other_language: "English", hand_heading: "組牌", hand_label: "手牌",
    hand_help: "數字後接 m（萬）、p（筒）、s（索）或 z（字）；副露寫在 [ ] 內，暗槓寫在 { } 內。最後一張是和牌。",
    melds: "副露", held: "手中的牌", palette: "加牌", tap_legend: "點手牌：",
    remove: "拿走", winning: "和牌", chow: "上", pung: "碰", kong: "明槓",
    concealed_kong: "暗槓", clear: "清除手牌",
    win_heading: "和牌", win_by: "和法", self_draw: "自摸", discard: "食出銃",
    seat: "和牌者座位", discarder: "出銃者", last_tile: "海底", kong_replacement: "槓上開花",
    robbing_kong: "搶槓", first_turn: "天和／地和",
    rules_heading: "規則", version: "版本", payoff: "付款", minimum: "起和番",
    bonus_tiles: "花牌", flower: "花", season: "季",
    table_heading: "牌桌", visible: "桌上見到的牌", explain: "其他拆法",
    expect: "期望得分（較慢）", draws_left: "餘下摸牌次數", discard_rate: "放銃率",
    answer_heading: "結果", sheet_heading: "記分表", players: "玩家", player: "玩家",
    add_hand: "記下此手", add_draw: "記下流局", move_seats: "換莊",
    claim_summary: "以勾選番種記一手", claim_help: "和牌者及和法見上方「和牌」。",
    add_claim: "記下所勾番種", undo_hand: "刪除最後一手", export: "匯出",
    new_sheet: "新記分表", new_sheet_again: "再按一次清除記分表",
    export_label: "記分表（/v1/settle 請求）", credit: "牌面繪圖：", api_docs: "API 文件",
    payoff_formal: "正式", payoff_uniform: "平均付", payoff_discarder_pays_all: "出銃者全付",
    payoff_discarder_pays_double: "出銃者付雙倍", payoff_formal_double: "正式（超出部分加倍）",
    E: "東", S: "南", W: "西", N: "北", dealer: "莊",
    short_E: "東", short_S: "南", short_W: "西", short_N: "北",
    tiles_count: (n) => `${n} 張：13 張看聽牌，14 張計分。`,
    count_13: "13 張：聽牌。", count_14: "14 張：計分及打牌分析。",
    score: "分數", points: "番數合計", limit: "上限", limit_none: "無", limit_capped: "已封頂",
    limit_single_pattern: "單一滿貫番種", payments: "付款", pattern: "番種", value: "番",
    count: "次數", breakdown: "計算番種", not_counted: "有但不計", sets: "組合", pair: "雀頭", melds_apart: "副露",
    readings: "其他拆法", none: "無", shanten: "向聽", ready: "聽牌", complete: "已和（請計分）",
    useful: "有效牌", useful_remaining: "有效牌餘數", waits: "聽牌", tile: "牌",
    remaining: "餘", cannot_win: "不能和", discards: "打牌分析", expected_score: "期望得分",
    win_chance: "和牌機會",
    expect_exhaustive: "期望數字：單人模型下的精確值。",
    expect_bounded: "期望數字：下限（只搜尋最快聽牌的打法）。",
    limited_too_far: "離聽牌四步或以上的打法沒有數字。",
    limited_budget: "沒有數字的打法超出了搜尋上限。", no_waits: "沒有牌能和此手。", hand_no: "手",
    winner: "和牌者", draw: "流局", claim: "勾選", totals: "合計", empty_sheet: "尚未記分。",
    standard: "一般", seven_pairs: "七對", thirteen_terminals: "十三么九",
    "Trivial Patterns": "一、雞和類", "One-Suit Patterns": "二、一色類",
    "Honor Tiles": "三、番子類", "Triplets and Kong": "四、刻槓類",
    "Identical Sets": "五、一般高類", "Similar Sets": "六、兄弟類",
    "Consecutive Sets": "七、順子類", Terminals: "八、么九類", "Incidental Bonuses": "九、偶然類",
    "Irregular Hands": "十、特殊類", "Bonus Tiles": "十一、花類",
  },
};

export const LANGUAGES = ["en", "zh"];
let language = "en";

export const current = () => language;

export function t(key, ...args) {
  const word = WORDS[language][key];
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
