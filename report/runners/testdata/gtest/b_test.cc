// The second binary of the same size as a_test.cc.
#include <gtest/gtest.h>

TEST(Beta, Passes) {}
TEST(Beta, Fails) { EXPECT_NE(3, 1 + 2) << "beta"; }
