#include "cmp/print.h"
void cmp_print_markdown(const struct cmp_print *p) { (void)p; }
void cmp_print_json(const struct cmp_print *p) { (void)p; }
void cmp_print_csv(const struct cmp_print *p) { (void)p; }
