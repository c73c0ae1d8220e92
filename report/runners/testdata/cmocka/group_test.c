#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

static int group_setup_fails(void **state) { (void)state; return -1; }
static void test_ok(void **state) { (void)state; }

int main(void) {
    const struct CMUnitTest tests[] = { cmocka_unit_test(test_ok) };
    return cmocka_run_group_tests(tests, group_setup_fails, NULL);
}
