/* stb_user_impl.c - the user's own file holding the implementations: stb_ds's (the user
   compiles it instead of linking -lstb) and the library's, in the same file as
   stb_user_lib.c, whose code it includes. Linked with stb_user_short_names.c; see the
   commands at the top of that file. */
#define STB_DS_IMPLEMENTATION
#include "stb_user_lib.c"
