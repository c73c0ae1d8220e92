#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
static void test_one(void **state) { (void)state; assert_int_equal(1, 1); }
static void test_two(void **state) { (void)state; assert_non_null(state); }
int main(void) {
    const struct CMUnitTest tests[] = { cmocka_unit_test(test_one), cmocka_unit_test(test_two) };
    return cmocka_run_group_tests_name("pass_group", tests, NULL, NULL);
}
