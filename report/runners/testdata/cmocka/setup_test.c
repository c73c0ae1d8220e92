#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

static int setup_fails(void **state) { (void)state; return -1; }
static void test_ok(void **state) { (void)state; assert_int_equal(1, 1); }
static void test_needs_setup(void **state) { (void)state; }

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_ok),
        cmocka_unit_test_setup(test_needs_setup, setup_fails),
    };
    return cmocka_run_group_tests_name("setup_group", tests, NULL, NULL);
}
