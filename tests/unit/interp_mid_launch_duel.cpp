// The duel of a task whose other code became ready part-way through a launch
// (vm/interp/mid_launch.h), driven with made-up timings: the order of its
// slices, and the code it keeps.
#include <doctest/doctest.h>

#include <functional>

#include "vm/interp/mid_launch.h"

using namespace kiln::interp;

namespace {

// Runs the duel's slices of `units` each until it decides; slice k (the
// duel's order) costs cost(k, other) a unit. Returns the choice and counts
// the slices each code ran.
int duel(MidLaunchTask& m, int64_t units, const std::function<double(int64_t, bool)>& cost, int* ran) {
  for (int k = 0; k < 2 * kDuelMaxSlices && m.choice.load() == kUndecided; k++) {
    bool other = false;
    int64_t turn = m.duel_turn(other);
    ran[other]++;
    m.duel_add(turn, (int64_t)(units * cost(turn, other)), units);
  }
  return m.choice.load();
}

}  // namespace

TEST_CASE("a duel alternates its slices A B B A and keeps the code with the lesser time a unit") {
  MidLaunchTask m;
  bool seen[8];
  for (bool& s : seen) m.duel_turn(s);
  const bool want[8] = {false, true, true, false, false, true, true, false};
  for (int k = 0; k < 8; k++) CHECK(seen[k] == want[k]);

  MidLaunchTask faster_other, faster_own;
  int ran[2] = {}, ran2[2] = {};
  CHECK(duel(faster_other, 100, [](int64_t, bool o) { return o ? 360.0 : 460.0; }, ran) == kOther);
  CHECK(ran[0] == kDuelSlices / 2);
  CHECK(ran[1] == kDuelSlices / 2);
  CHECK(duel(faster_own, 100, [](int64_t, bool o) { return o ? 460.0 : 360.0; }, ran2) == kOwn);
}

TEST_CASE("a duel is not fooled by iterations whose cost grows along the range") {
  // One code is 10% faster a unit, and slice k's units cost 1 + 0.15 k
  // times the first's: in the order A B B A both codes run slices of the
  // same average cost. (10% is a close duel: it runs kDuelMaxSlices.)
  for (int own_faster = 0; own_faster < 2; own_faster++) {
    MidLaunchTask m;
    int ran[2] = {};
    double own = own_faster ? 1000 : 1100, other = own_faster ? 1100 : 1000;
    CHECK(duel(m, 64, [&](int64_t k, bool o) { return (o ? other : own) * (1 + 0.15 * k); }, ran) ==
          (own_faster ? kOwn : kOther));
    CHECK(ran[0] + ran[1] == kDuelMaxSlices);
  }
}

TEST_CASE("a duel is not fooled by a cost that alternates slice by slice") {
  // An image's rows cut in halves, one dear and one cheap (pixels inside the
  // set and outside): slices in the order A B A B would give one code every
  // dear half. The other code is 20% faster.
  MidLaunchTask m;
  int ran[2] = {};
  CHECK(duel(m, 64, [](int64_t k, bool o) { return (o ? 0.8 : 1.0) * (k % 2 ? 3000.0 : 300.0); }, ran) == kOther);
}

TEST_CASE("probes after the first decision change it when the range's later parts say so") {
  // The duel began where the other code is faster (cheap iterations); the
  // rest of the range is dear, and there the own code is twice as fast.
  MidLaunchTask m;
  int ran[2] = {};
  CHECK(duel(m, 100, [](int64_t, bool o) { return o ? 50.0 : 80.0; }, ran) == kOther);
  int64_t k = 0;
  bool other = false;
  for (int pair = 0; pair < 3; pair++)
    for (int j = 0; j < 2; j++) {
      k = m.duel_turn(other);
      m.duel_add(k, 100 * (other ? 2000 : 1000), 100);
    }
  CHECK(m.choice.load() == kOwn);
}

TEST_CASE("a task's choice settles after a whole launch of probes") {
  struct Stub : NativeTask {
    void run(kiln::LaunchContext&, int64_t, int64_t, const int64_t*) override {}
  } stub;
  MidLaunchTask m;
  m.settle_at_start();  // no other code yet
  m.native.store(&stub);
  m.settle_at_start();  // the launch the duel begins in: undecided at its start
  CHECK(!m.settled.load());
  int ran[2] = {};
  duel(m, 10, [](int64_t, bool o) { return o ? 100.0 : 150.0; }, ran);
  m.settle_at_start();  // the next launch: probed through
  CHECK(!m.settled.load());
  m.settle_at_start();
  CHECK(m.settled.load());

  MidLaunchTask clear;  // a code twice as fast settles it at once: no probes
  int ran2[2] = {};
  CHECK(duel(clear, 10, [](int64_t, bool o) { return o ? 100.0 : 200.0; }, ran2) == kOther);
  CHECK(clear.settled.load());
}

TEST_CASE("under duel_back every duel ends on the own code") {
  MidLaunchTask m;
  m.duel_back = true;
  int ran[2] = {};
  CHECK(duel(m, 10, [](int64_t, bool o) { return o ? 100.0 : 500.0; }, ran) == kOwn);
  bool other = false;
  for (int j = 0; j < 4; j++) m.duel_add(m.duel_turn(other), 1, 1000);
  CHECK(m.choice.load() == kOwn);
  CHECK(MidLaunchTask::duel_winner(700, 100, 1400, 200) == kOther);  // a tie: the code compiled for it
  CHECK(MidLaunchTask::duel_winner(1000, 100, 2100, 200) == kOther);  // the own code 5% faster: within the margin
  CHECK(MidLaunchTask::duel_winner(1000, 100, 2101, 200) == kOwn);
}

TEST_CASE("a close duel measures on to kDuelMaxSlices; a sure one decides at kDuelSlices") {
  // The own code 10% faster: undecided after kDuelSlices (within kSureWin),
  // decided for it after kDuelMaxSlices (past kOwnMargin).
  MidLaunchTask close;
  int ran[2] = {};
  bool other = false;
  for (int k = 0; k < kDuelSlices; k++) {
    int64_t turn = close.duel_turn(other);
    close.duel_add(turn, other ? 1100 : 1000, 1);
  }
  CHECK(close.choice.load() == kUndecided);
  CHECK(duel(close, 1, [](int64_t, bool o) { return o ? 1100.0 : 1000.0; }, ran) == kOwn);
  CHECK(close.duel_runs.load() == kDuelMaxSlices);
  // The other code 1.3 times as fast: sure at kDuelSlices.
  MidLaunchTask sure;
  int ran2[2] = {};
  CHECK(duel(sure, 1, [](int64_t, bool o) { return o ? 1000.0 : 1300.0; }, ran2) == kOther);
  CHECK(ran2[0] + ran2[1] == kDuelSlices);
}
