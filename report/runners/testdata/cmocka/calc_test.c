#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <string.h>
#include <cmocka.h>

static int add(int a, int b) { return a + b + (a > 100); }

static void test_add(void **state) { (void)state; assert_int_equal(add(1, 2), 3); }
static void test_add_big(void **state) { (void)state; assert_int_equal(add(101, 1), 102); }
static void test_string(void **state) { (void)state; assert_string_equal("hello", "world"); }
static void test_true(void **state) { (void)state; assert_true(add(0, 0) == 1); }
static void test_skip(void **state) { (void)state; skip(); }
static void test_fail_msg(void **state) { (void)state; fail_msg("unexpected state %d", 7); }

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_add),
        cmocka_unit_test(test_add_big),
        cmocka_unit_test(test_string),
        cmocka_unit_test(test_true),
        cmocka_unit_test(test_skip),
        cmocka_unit_test(test_fail_msg),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
