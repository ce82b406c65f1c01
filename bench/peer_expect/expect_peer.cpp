// The C++ peer's side of `python -m bench.expect_peer`: mahjong-cpp's expected-score calculator
// (nekobean/mahjong-cpp, Riichi; built by build.sh) timed on the hands it reads, one a line as
// "<group> <tiles in mpsz>", a 14-tile concealed hand. For each: one call on the 14 tiles (every
// discard, its draws and discards, one step off the shortest ways: the library's defaults, 17
// draws), the wall every tile not in the hand; printed "<group> <tiles> <CPU ms> <states>".
// One warm-up call first, on another hand: the library's tables load on first use.
#include <cstdio>
#include <ctime>
#include <iostream>
#include <numeric>
#include <string>

#include "mahjong/mahjong.hpp"

using namespace mahjong;

static double cpu_ms()
{
    timespec now;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &now);
    return now.tv_sec * 1e3 + now.tv_nsec / 1e6;
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

    auto solve = [&](const Hand &hand) {
        PlayerState player;
        player.hand = hand;
        player.seat_wind = Tile::East;
        MergedCount wall{0};
        for (int kind = 0; kind < 34; ++kind) wall[kind] = 4 - hand[kind];
        for (int red = 34; red < 37; ++red) wall[red] = 1 - hand[red];
        ExpectedScoreCalculator::Config asked = config;
        asked.sum = std::accumulate(wall.begin(), wall.begin() + 34, 0);
        return std::get<1>(ExpectedScoreCalculator::calc(asked, rules, round, table, player, wall));
    };

    solve(from_mpsz("222567m345p33667s"));  // the warm-up: the library's sample hand
    int group;
    std::string tiles;
    while (std::cin >> group >> tiles) {
        const Hand hand = from_mpsz(tiles);
        const double start = cpu_ms();
        const int states = solve(hand);
        std::printf("%d %s %.4f %d\n", group, tiles.c_str(), cpu_ms() - start, states);
        std::fflush(stdout);
    }
    return 0;
}
