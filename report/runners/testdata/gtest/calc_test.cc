// A GoogleTest fixture for runledger's gtest tests (report/runners'
// gtest_test.go, report/render's gtest_test.go): each outcome gtest knows.
// Built with Debian's libgtest-dev and libgmock-dev:
//   g++ -std=c++17 calc_test.cc -lgmock -lgtest -lgtest_main -pthread
// GTEST_FIXTURE_FIXED=1 makes Sum right (the base branch's run);
// GTEST_FIXTURE_CRASH=1 makes Crash.Segv dereference a null pointer.
#include <cstdio>
#include <cstdlib>
#include <stdexcept>
#include <string>
#include <vector>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

using ::testing::HasSubstr;

static bool Fixed() { return std::getenv("GTEST_FIXTURE_FIXED") != nullptr; }

// Sum drops the last element: the regression the failing tests catch.
int Sum(const std::vector<int>& v) {
  int s = 0;
  for (size_t i = 0; i + (Fixed() ? 0 : 1) < v.size(); i++) s += v[i];
  return s;
}

TEST(Sum, Three) {
  for (int i = 0; i < 40; i++) std::printf("Sum.Three: loading row %d of the reference table\n", i);
  EXPECT_EQ(6, Sum({1, 2, 3})) << "sum of 1..3";
  std::printf("Sum.Three: done\n");
}

TEST(Sum, Empty) { EXPECT_EQ(0, Sum({})); }

TEST(Sum, Single) { ASSERT_TRUE(Sum({7}) == 7) << "one element"; }

TEST(Sum, Logs) {
  for (int i = 0; i < 250; i++) std::printf("Sum.Logs: ERROR-looking log line %d that passes anyway\n", i);
}

TEST(Match, Greeting) {
  std::string greeting = Fixed() ? "hello bye" : "hello world";
  EXPECT_THAT(greeting, HasSubstr("bye"));
}

TEST(Match, Throws) {
  if (!Fixed()) throw std::runtime_error("boom");
}

TEST(Skip, Later) { GTEST_SKIP() << "not on this platform"; }

TEST(Skip, DISABLED_Off) {}

TEST(Death, Exits) { EXPECT_DEATH(std::exit(Fixed() ? 1 : 0), ""); }

class Positive : public ::testing::TestWithParam<int> {};
TEST_P(Positive, IsPositive) { EXPECT_GT(Fixed() ? 1 : GetParam(), 0); }
INSTANTIATE_TEST_SUITE_P(V, Positive, ::testing::Values(1, -2, 3));

class Db : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    if (!Fixed()) ADD_FAILURE() << "no database";
  }
};
TEST_F(Db, Query) {}

TEST(Crash, Segv) {
  if (std::getenv("GTEST_FIXTURE_CRASH")) {
    std::printf("Crash.Segv: about to dereference null\n");
    std::fflush(stdout);
    volatile int* p = nullptr;
    *p = 1;
  }
}

TEST(Crash, After) {}
