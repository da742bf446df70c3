#include "tests/check_main.h"
START_TEST(test_placeholder) { ck_assert_int_eq(1, 1); }
END_TEST
static Suite *make_suite(void) { Suite *s = suite_create("rules"); TCase *t = tcase_create("x"); tcase_add_test(t, test_placeholder); suite_add_tcase(s, t); return s; }
