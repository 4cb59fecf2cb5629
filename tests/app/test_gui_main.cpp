// placeholder
#ifdef ARTICULA_GUI_TEST
int main() { return 0; }
#endif
