// The C++ peer's side of `python -m bench.expect_peer`: mahjong-cpp's expected-score calculator
// (nekobean/mahjong-cpp, Riichi; built by build.sh) timed on the hands it reads, one a line:
// the concealed tiles in mpsz, then each meld as chow:<tiles> or pung:<tiles>, 14 tiles in
// all. For each: one call (every discard, its draws and discards, one step off the shortest
// ways: the library's defaults, 17 draws), the wall every tile not in the hand or its melds;
// printed "<CPU ms> <states>". One warm-up call first, on another hand: the library's tables
// load on first use.
#include <cstdio>
#include <ctime>
#include <iostream>
#include <numeric>
#include <sstream>
#include <string>
#include <vector>

#include "mahjong/mahjong.hpp"

using namespace mahjong;

static double cpu_ms()
{
    timespec now;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &now);
    return now.tv_sec * 1e3 + now.tv_nsec / 1e6;
}

// A meld as the line writes it: "chow:345p" or "pung:777z" (the line gives a kong as a pung:
// the library counts a hand's tiles with its melds' and takes no fourth tile of a set).
static Meld read_meld(const std::string &written)
{
    const size_t colon = written.find(':');
    Meld meld;
    meld.type = written.substr(0, colon) == "chow" ? MeldType::Chi : MeldType::Pon;
    std::string digits;  // (not from_mpsz: it takes a hand, whose size three never is)
    for (char c : written.substr(colon + 1)) {
        if (c >= '0' && c <= '9') {
            digits += c;
            continue;
        }
        const int suit = std::string("mpsz").find(c);
        for (char digit : digits) meld.tiles.push_back(9 * suit + (digit - '1'));
        digits.clear();
    }
    meld.discarded_tile = meld.tiles.front();
    meld.from = SeatType::Kamicha;
    return meld;
}

int main()
{
    TableConfig rules;
    rules.rule_flags = RuleFlag::Default;
    rules.game_mode = GameMode::Yonma;
    RoundState round;
    round.round_wind = Tile::East;
    round.round_number = 1;
    round.honba = 0;
    TableState table;
    table.kyotaku = 0;
    table.dora_indicators = {Tile::East};  // as the library's sample has it
    table.uradora_indicators = {};

    ExpectedScoreCalculator::Config config;  // the library's defaults (its sample's) but:
    config.t_max = 17;                       // 17 draws, as the service's bench asks

    auto solve = [&](const Hand &hand, const std::vector<Meld> &melds) {
        PlayerState player;
        player.hand = hand;
        player.melds = melds;
        player.seat_wind = Tile::East;
        MergedCount wall{0};
        for (int kind = 0; kind < 34; ++kind) wall[kind] = 4 - hand[kind];
        for (int red = 34; red < 37; ++red) wall[red] = 1 - hand[red];
        for (const Meld &meld : melds)
            for (int tile : meld.tiles) --wall[tile];
        ExpectedScoreCalculator::Config asked = config;
        asked.sum = std::accumulate(wall.begin(), wall.begin() + 34, 0);
        return std::get<1>(ExpectedScoreCalculator::calc(asked, rules, round, table, player, wall));
    };

    solve(from_mpsz("222567m345p33667s"), {});  // the warm-up: the library's sample hand
    std::string line;
    while (std::getline(std::cin, line)) {
        std::istringstream fields(line);
        std::string tiles, written;
        fields >> tiles;
        std::vector<Meld> melds;
        while (fields >> written) melds.push_back(read_meld(written));
        const Hand hand = from_mpsz(tiles);
        const double start = cpu_ms();
        const int states = solve(hand, melds);
        std::printf("%.4f %d\n", cpu_ms() - start, states);
        std::fflush(stdout);
    }
    return 0;
}
