/*
 * shmem_generic.h: part of shmem.h: the C11 _Generic forms of the generic routines
 * (shmem_put, shmem_atomic_fetch_add, shmem_wait_until_all, ...), GENERATED from the type
 * lists of shmem_typetable.h (the SHMEM_GENERIC_* lists: distinct C types only, since the
 * fixed-width types are aliases of basic ones and one type may appear once in a selection).
 * Only for C11 and later; C++ and C99 programs use the typed names.
 *
 * How a call is resolved: routines that take a context may be called with or without one
 * (shmem_put(dest, src, n, pe) or shmem_put(ctx, dest, src, n, pe)). The type of the first
 * argument decides: a shmem_ctx_t selects the shmem_ctx_TYPE_ routine by the type of the
 * second argument, anything else the shmem_TYPE_ routine by the type of the first. A type
 * the specification does not list for a routine selects sshmem_generic_unsupported_type,
 * which takes no arguments, so the call does not compile.
 */
#ifndef SHMEM_GENERIC_H
#define SHMEM_GENERIC_H
/* The library itself is built without them: it defines functions of the same names (the
 * deprecated untyped shmem_wait_until, for one). */
#if defined(__STDC_VERSION__) && __STDC_VERSION__ >= 201112L && !defined(__cplusplus) &&       \
    !defined(SSHMEM_LIBRARY_BUILD)

/* Never defined: selected only for an unsupported type, where the call fails to compile. */
void sshmem_generic_unsupported_type(void);

#define SHMEM_G_FIRST_(a, ...) a
#define SHMEM_G_SECOND_(a, b, ...) b
#define SHMEM_G_SELECT_(LIST, X, e) _Generic((e), LIST(X) default: sshmem_generic_unsupported_type)
/* The routine OP (X macros SHMEM_G_X_OP_ and SHMEM_G_X_ctx_OP_) over the types of LIST, chosen
 * by the context-or-not rule above, then called with all the arguments. */
#define SHMEM_G_CTX_OR_NOT_(LIST, OP, ...)                                                       \
    _Generic(SHMEM_G_FIRST_(__VA_ARGS__, 0),                                                     \
             shmem_ctx_t: SHMEM_G_SELECT_(LIST, SHMEM_G_X_ctx_##OP##_,                           \
                                          SHMEM_G_SECOND_(__VA_ARGS__, 0, 0)),                   \
             default: SHMEM_G_SELECT_(LIST, SHMEM_G_X_##OP##_,                                   \
                                      SHMEM_G_FIRST_(__VA_ARGS__, 0)))(__VA_ARGS__)

/* ------------------------------------------------------------------ RMA */
#define SHMEM_G_X_put_(T, N) T *: shmem_##N##_put,
#define SHMEM_G_X_ctx_put_(T, N) T *: shmem_ctx_##N##_put,
#define SHMEM_G_X_get_(T, N) T *: shmem_##N##_get,
#define SHMEM_G_X_ctx_get_(T, N) T *: shmem_ctx_##N##_get,
#define SHMEM_G_X_put_nbi_(T, N) T *: shmem_##N##_put_nbi,
#define SHMEM_G_X_ctx_put_nbi_(T, N) T *: shmem_ctx_##N##_put_nbi,
#define SHMEM_G_X_get_nbi_(T, N) T *: shmem_##N##_get_nbi,
#define SHMEM_G_X_ctx_get_nbi_(T, N) T *: shmem_ctx_##N##_get_nbi,
#define SHMEM_G_X_iput_(T, N) T *: shmem_##N##_iput,
#define SHMEM_G_X_ctx_iput_(T, N) T *: shmem_ctx_##N##_iput,
#define SHMEM_G_X_iget_(T, N) T *: shmem_##N##_iget,
#define SHMEM_G_X_ctx_iget_(T, N) T *: shmem_ctx_##N##_iget,
#define SHMEM_G_X_ibput_(T, N) T *: shmem_##N##_ibput,
#define SHMEM_G_X_ctx_ibput_(T, N) T *: shmem_ctx_##N##_ibput,
#define SHMEM_G_X_ibget_(T, N) T *: shmem_##N##_ibget,
#define SHMEM_G_X_ctx_ibget_(T, N) T *: shmem_ctx_##N##_ibget,
#define SHMEM_G_X_p_(T, N) T *: shmem_##N##_p,
#define SHMEM_G_X_ctx_p_(T, N) T *: shmem_ctx_##N##_p,
#define SHMEM_G_X_g_(T, N) T *: shmem_##N##_g, const T *: shmem_##N##_g,
#define SHMEM_G_X_ctx_g_(T, N) T *: shmem_ctx_##N##_g, const T *: shmem_ctx_##N##_g,
#define SHMEM_G_X_put_signal_(T, N) T *: shmem_##N##_put_signal,
#define SHMEM_G_X_ctx_put_signal_(T, N) T *: shmem_ctx_##N##_put_signal,
#define SHMEM_G_X_put_signal_nbi_(T, N) T *: shmem_##N##_put_signal_nbi,
#define SHMEM_G_X_ctx_put_signal_nbi_(T, N) T *: shmem_ctx_##N##_put_signal_nbi,

#define SHMEM_G_RMA_(OP, ...) SHMEM_G_CTX_OR_NOT_(SHMEM_GENERIC_RMA_TYPES, OP, __VA_ARGS__)
#define shmem_put(...) SHMEM_G_RMA_(put, __VA_ARGS__)
#define shmem_get(...) SHMEM_G_RMA_(get, __VA_ARGS__)
#define shmem_put_nbi(...) SHMEM_G_RMA_(put_nbi, __VA_ARGS__)
#define shmem_get_nbi(...) SHMEM_G_RMA_(get_nbi, __VA_ARGS__)
#define shmem_iput(...) SHMEM_G_RMA_(iput, __VA_ARGS__)
#define shmem_iget(...) SHMEM_G_RMA_(iget, __VA_ARGS__)
#define shmem_ibput(...) SHMEM_G_RMA_(ibput, __VA_ARGS__)
#define shmem_ibget(...) SHMEM_G_RMA_(ibget, __VA_ARGS__)
#define shmem_p(...) SHMEM_G_RMA_(p, __VA_ARGS__)
#define shmem_g(...) SHMEM_G_RMA_(g, __VA_ARGS__)
#define shmem_put_signal(...) SHMEM_G_RMA_(put_signal, __VA_ARGS__)
#define shmem_put_signal_nbi(...) SHMEM_G_RMA_(put_signal_nbi, __VA_ARGS__)

/* ------------------------------------------------------------------ atomics */
/* X macros named after the routine suffix: shmem_TYPE_atomic_<OP> and shmem_ctx_TYPE_... */
#define SHMEM_G_X_fetch_(T, N) T *: shmem_##N##_atomic_fetch, const T *: shmem_##N##_atomic_fetch,
#define SHMEM_G_X_ctx_fetch_(T, N)                                                               \
    T *: shmem_ctx_##N##_atomic_fetch, const T *: shmem_ctx_##N##_atomic_fetch,
#define SHMEM_G_X_set_(T, N) T *: shmem_##N##_atomic_set,
#define SHMEM_G_X_ctx_set_(T, N) T *: shmem_ctx_##N##_atomic_set,
#define SHMEM_G_X_swap_(T, N) T *: shmem_##N##_atomic_swap,
#define SHMEM_G_X_ctx_swap_(T, N) T *: shmem_ctx_##N##_atomic_swap,
#define SHMEM_G_X_fetch_nbi_(T, N) T *: shmem_##N##_atomic_fetch_nbi,
#define SHMEM_G_X_ctx_fetch_nbi_(T, N) T *: shmem_ctx_##N##_atomic_fetch_nbi,
#define SHMEM_G_X_swap_nbi_(T, N) T *: shmem_##N##_atomic_swap_nbi,
#define SHMEM_G_X_ctx_swap_nbi_(T, N) T *: shmem_ctx_##N##_atomic_swap_nbi,
#define SHMEM_G_X_compare_swap_(T, N) T *: shmem_##N##_atomic_compare_swap,
#define SHMEM_G_X_ctx_compare_swap_(T, N) T *: shmem_ctx_##N##_atomic_compare_swap,
#define SHMEM_G_X_fetch_inc_(T, N) T *: shmem_##N##_atomic_fetch_inc,
#define SHMEM_G_X_ctx_fetch_inc_(T, N) T *: shmem_ctx_##N##_atomic_fetch_inc,
#define SHMEM_G_X_inc_(T, N) T *: shmem_##N##_atomic_inc,
#define SHMEM_G_X_ctx_inc_(T, N) T *: shmem_ctx_##N##_atomic_inc,
#define SHMEM_G_X_fetch_add_(T, N) T *: shmem_##N##_atomic_fetch_add,
#define SHMEM_G_X_ctx_fetch_add_(T, N) T *: shmem_ctx_##N##_atomic_fetch_add,
#define SHMEM_G_X_add_(T, N) T *: shmem_##N##_atomic_add,
#define SHMEM_G_X_ctx_add_(T, N) T *: shmem_ctx_##N##_atomic_add,
#define SHMEM_G_X_compare_swap_nbi_(T, N) T *: shmem_##N##_atomic_compare_swap_nbi,
#define SHMEM_G_X_ctx_compare_swap_nbi_(T, N) T *: shmem_ctx_##N##_atomic_compare_swap_nbi,
#define SHMEM_G_X_fetch_inc_nbi_(T, N) T *: shmem_##N##_atomic_fetch_inc_nbi,
#define SHMEM_G_X_ctx_fetch_inc_nbi_(T, N) T *: shmem_ctx_##N##_atomic_fetch_inc_nbi,
#define SHMEM_G_X_fetch_add_nbi_(T, N) T *: shmem_##N##_atomic_fetch_add_nbi,
#define SHMEM_G_X_ctx_fetch_add_nbi_(T, N) T *: shmem_ctx_##N##_atomic_fetch_add_nbi,
#define SHMEM_G_X_fetch_and_(T, N) T *: shmem_##N##_atomic_fetch_and,
#define SHMEM_G_X_ctx_fetch_and_(T, N) T *: shmem_ctx_##N##_atomic_fetch_and,
#define SHMEM_G_X_fetch_or_(T, N) T *: shmem_##N##_atomic_fetch_or,
#define SHMEM_G_X_ctx_fetch_or_(T, N) T *: shmem_ctx_##N##_atomic_fetch_or,
#define SHMEM_G_X_fetch_xor_(T, N) T *: shmem_##N##_atomic_fetch_xor,
#define SHMEM_G_X_ctx_fetch_xor_(T, N) T *: shmem_ctx_##N##_atomic_fetch_xor,
#define SHMEM_G_X_and_(T, N) T *: shmem_##N##_atomic_and,
#define SHMEM_G_X_ctx_and_(T, N) T *: shmem_ctx_##N##_atomic_and,
#define SHMEM_G_X_or_(T, N) T *: shmem_##N##_atomic_or,
#define SHMEM_G_X_ctx_or_(T, N) T *: shmem_ctx_##N##_atomic_or,
#define SHMEM_G_X_xor_(T, N) T *: shmem_##N##_atomic_xor,
#define SHMEM_G_X_ctx_xor_(T, N) T *: shmem_ctx_##N##_atomic_xor,
#define SHMEM_G_X_fetch_and_nbi_(T, N) T *: shmem_##N##_atomic_fetch_and_nbi,
#define SHMEM_G_X_ctx_fetch_and_nbi_(T, N) T *: shmem_ctx_##N##_atomic_fetch_and_nbi,
#define SHMEM_G_X_fetch_or_nbi_(T, N) T *: shmem_##N##_atomic_fetch_or_nbi,
#define SHMEM_G_X_ctx_fetch_or_nbi_(T, N) T *: shmem_ctx_##N##_atomic_fetch_or_nbi,
#define SHMEM_G_X_fetch_xor_nbi_(T, N) T *: shmem_##N##_atomic_fetch_xor_nbi,
#define SHMEM_G_X_ctx_fetch_xor_nbi_(T, N) T *: shmem_ctx_##N##_atomic_fetch_xor_nbi,

/* Each atomic over the type list of its table: extended, standard or bitwise. */
#define SHMEM_G_EXT_(OP, ...) SHMEM_G_CTX_OR_NOT_(SHMEM_GENERIC_EXT_AMO_TYPES, OP, __VA_ARGS__)
#define SHMEM_G_STD_(OP, ...) SHMEM_G_CTX_OR_NOT_(SHMEM_GENERIC_STD_AMO_TYPES, OP, __VA_ARGS__)
#define SHMEM_G_BIT_(OP, ...) SHMEM_G_CTX_OR_NOT_(SHMEM_GENERIC_BITWISE_AMO_TYPES, OP, __VA_ARGS__)

#define shmem_atomic_fetch(...) SHMEM_G_EXT_(fetch, __VA_ARGS__)
#define shmem_atomic_set(...) SHMEM_G_EXT_(set, __VA_ARGS__)
#define shmem_atomic_swap(...) SHMEM_G_EXT_(swap, __VA_ARGS__)
#define shmem_atomic_fetch_nbi(...) SHMEM_G_EXT_(fetch_nbi, __VA_ARGS__)
#define shmem_atomic_swap_nbi(...) SHMEM_G_EXT_(swap_nbi, __VA_ARGS__)
#define shmem_atomic_compare_swap(...) SHMEM_G_STD_(compare_swap, __VA_ARGS__)
#define shmem_atomic_fetch_inc(...) SHMEM_G_STD_(fetch_inc, __VA_ARGS__)
#define shmem_atomic_inc(...) SHMEM_G_STD_(inc, __VA_ARGS__)
#define shmem_atomic_fetch_add(...) SHMEM_G_STD_(fetch_add, __VA_ARGS__)
#define shmem_atomic_add(...) SHMEM_G_STD_(add, __VA_ARGS__)
#define shmem_atomic_compare_swap_nbi(...) SHMEM_G_STD_(compare_swap_nbi, __VA_ARGS__)
#define shmem_atomic_fetch_inc_nbi(...) SHMEM_G_STD_(fetch_inc_nbi, __VA_ARGS__)
#define shmem_atomic_fetch_add_nbi(...) SHMEM_G_STD_(fetch_add_nbi, __VA_ARGS__)
#define shmem_atomic_fetch_and(...) SHMEM_G_BIT_(fetch_and, __VA_ARGS__)
#define shmem_atomic_fetch_or(...) SHMEM_G_BIT_(fetch_or, __VA_ARGS__)
#define shmem_atomic_fetch_xor(...) SHMEM_G_BIT_(fetch_xor, __VA_ARGS__)
#define shmem_atomic_and(...) SHMEM_G_BIT_(and, __VA_ARGS__)
#define shmem_atomic_or(...) SHMEM_G_BIT_(or, __VA_ARGS__)
#define shmem_atomic_xor(...) SHMEM_G_BIT_(xor, __VA_ARGS__)
#define shmem_atomic_fetch_and_nbi(...) SHMEM_G_BIT_(fetch_and_nbi, __VA_ARGS__)
#define shmem_atomic_fetch_or_nbi(...) SHMEM_G_BIT_(fetch_or_nbi, __VA_ARGS__)
#define shmem_atomic_fetch_xor_nbi(...) SHMEM_G_BIT_(fetch_xor_nbi, __VA_ARGS__)

/* The deprecated generic names of OpenSHMEM 1.3 (no context form): each selects the typed
 * routine of its current name, over the same type list. */
#define SHMEM_G_DEPRECATED_(LIST, OP, ...)                                                       \
    SHMEM_G_SELECT_(LIST, SHMEM_G_X_##OP##_, SHMEM_G_FIRST_(__VA_ARGS__, 0))(__VA_ARGS__)
#define shmem_fetch(...) SHMEM_G_DEPRECATED_(SHMEM_GENERIC_EXT_AMO_TYPES, fetch, __VA_ARGS__)
#define shmem_set(...) SHMEM_G_DEPRECATED_(SHMEM_GENERIC_EXT_AMO_TYPES, set, __VA_ARGS__)
#define shmem_swap(...) SHMEM_G_DEPRECATED_(SHMEM_GENERIC_EXT_AMO_TYPES, swap, __VA_ARGS__)
#define shmem_cswap(...)                                                                         \
    SHMEM_G_DEPRECATED_(SHMEM_GENERIC_STD_AMO_TYPES, compare_swap, __VA_ARGS__)
#define shmem_finc(...) SHMEM_G_DEPRECATED_(SHMEM_GENERIC_STD_AMO_TYPES, fetch_inc, __VA_ARGS__)
#define shmem_inc(...) SHMEM_G_DEPRECATED_(SHMEM_GENERIC_STD_AMO_TYPES, inc, __VA_ARGS__)
#define shmem_fadd(...) SHMEM_G_DEPRECATED_(SHMEM_GENERIC_STD_AMO_TYPES, fetch_add, __VA_ARGS__)
#define shmem_add(...) SHMEM_G_DEPRECATED_(SHMEM_GENERIC_STD_AMO_TYPES, add, __VA_ARGS__)

/* ------------------------------------------------------------------ point-to-point sync */
#define SHMEM_G_X_wait_until_(T, N) T *: shmem_##N##_wait_until,
#define SHMEM_G_X_wait_until_all_(T, N) T *: shmem_##N##_wait_until_all,
#define SHMEM_G_X_wait_until_any_(T, N) T *: shmem_##N##_wait_until_any,
#define SHMEM_G_X_wait_until_some_(T, N) T *: shmem_##N##_wait_until_some,
#define SHMEM_G_X_wait_until_all_vector_(T, N) T *: shmem_##N##_wait_until_all_vector,
#define SHMEM_G_X_wait_until_any_vector_(T, N) T *: shmem_##N##_wait_until_any_vector,
#define SHMEM_G_X_wait_until_some_vector_(T, N) T *: shmem_##N##_wait_until_some_vector,
#define SHMEM_G_X_test_(T, N) T *: shmem_##N##_test,
#define SHMEM_G_X_test_all_(T, N) T *: shmem_##N##_test_all,
#define SHMEM_G_X_test_any_(T, N) T *: shmem_##N##_test_any,
#define SHMEM_G_X_test_some_(T, N) T *: shmem_##N##_test_some,
#define SHMEM_G_X_test_all_vector_(T, N) T *: shmem_##N##_test_all_vector,
#define SHMEM_G_X_test_any_vector_(T, N) T *: shmem_##N##_test_any_vector,
#define SHMEM_G_X_test_some_vector_(T, N) T *: shmem_##N##_test_some_vector,

#define SHMEM_G_SYNC_(OP, ...)                                                                   \
    SHMEM_G_SELECT_(SHMEM_GENERIC_SYNC_TYPES, SHMEM_G_X_##OP##_,                                 \
                    SHMEM_G_FIRST_(__VA_ARGS__, 0))(__VA_ARGS__)

#define shmem_wait_until(...) SHMEM_G_SYNC_(wait_until, __VA_ARGS__)
#define shmem_wait_until_all(...) SHMEM_G_SYNC_(wait_until_all, __VA_ARGS__)
#define shmem_wait_until_any(...) SHMEM_G_SYNC_(wait_until_any, __VA_ARGS__)
#define shmem_wait_until_some(...) SHMEM_G_SYNC_(wait_until_some, __VA_ARGS__)
#define shmem_wait_until_all_vector(...) SHMEM_G_SYNC_(wait_until_all_vector, __VA_ARGS__)
#define shmem_wait_until_any_vector(...) SHMEM_G_SYNC_(wait_until_any_vector, __VA_ARGS__)
#define shmem_wait_until_some_vector(...) SHMEM_G_SYNC_(wait_until_some_vector, __VA_ARGS__)
#define shmem_test(...) SHMEM_G_SYNC_(test, __VA_ARGS__)
#define shmem_test_all(...) SHMEM_G_SYNC_(test_all, __VA_ARGS__)
#define shmem_test_any(...) SHMEM_G_SYNC_(test_any, __VA_ARGS__)
#define shmem_test_some(...) SHMEM_G_SYNC_(test_some, __VA_ARGS__)
#define shmem_test_all_vector(...) SHMEM_G_SYNC_(test_all_vector, __VA_ARGS__)
#define shmem_test_any_vector(...) SHMEM_G_SYNC_(test_any_vector, __VA_ARGS__)
#define shmem_test_some_vector(...) SHMEM_G_SYNC_(test_some_vector, __VA_ARGS__)

#endif /* C11, not the library */
#endif /* SHMEM_GENERIC_H */
