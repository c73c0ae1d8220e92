#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdlib.h>
#include <cmocka.h>

static void test_first(void **state) { (void)state; assert_int_equal(2, 2); }
static void test_aborts(void **state) { (void)state; abort(); }
static void test_never(void **state) { (void)state; }

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_first),
        cmocka_unit_test(test_aborts),
        cmocka_unit_test(test_never),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
