// Two binaries of the same size (report/runners' gtest_test.go): their
// runs are summed, not taken for a retry of one.
#include <gtest/gtest.h>

TEST(Alpha, Passes) {}
TEST(Alpha, Fails) { EXPECT_EQ(2, 1 + 2) << "alpha"; }
