/* test_held.c: the queues of held messages (src/transport/held.c): a message comes out only
 * once its word has reached its gate, of one word's messages the lowest gate first, words
 * independent of each other, and nothing lost or repeated over many interleaved gates (three
 * senders at different distances ahead, as a tcp gatherv root sees them), nor at the edges
 * of a queue's ring of buckets. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <cmocka.h>

#include "transport/held.h"

typedef struct msg {
    sshmem_held_t held; /* first, as the library's entries have it */
    int id;
} msg_t;

static msg_t *take(sshmem_held_set_t *set) { return (msg_t *)sshmem_held_take_open(set); }

static void gate_order(void **state)
{
    (void)state;
    long word = 0;
    sshmem_held_set_t set = {0};
    msg_t m[4] = {{{&word, 3}, 0}, {{&word, 1}, 1}, {{&word, 2}, 2}, {{&word, 1}, 3}};
    for (int i = 0; i < 4; i++)
        assert_int_equal(sshmem_held_add(&set, &m[i].held), 0);
    assert_int_equal(set.count, 4);
    assert_null(take(&set)); /* word 0: every gate closed */
    word = 1;
    msg_t *a = take(&set), *b = take(&set);
    assert_non_null(a);
    assert_non_null(b);
    assert_int_equal(a->held.open_at, 1);
    assert_int_equal(b->held.open_at, 1);
    assert_true((a->id == 1 && b->id == 3) || (a->id == 3 && b->id == 1));
    assert_null(take(&set));
    word = 5; /* a word may jump: both the rest, lowest gate first */
    assert_int_equal(take(&set)->id, 2);
    assert_int_equal(take(&set)->id, 0);
    assert_null(take(&set));
    assert_int_equal(set.count, 0);
    sshmem_held_clear(&set, NULL);
}

static void words_apart(void **state)
{
    (void)state;
    long w1 = 0, w2 = 0;
    sshmem_held_set_t set = {0};
    msg_t a = {{&w1, 5}, 1}, b = {{&w2, 1}, 2};
    assert_int_equal(sshmem_held_add(&set, &a.held), 0);
    assert_int_equal(sshmem_held_add(&set, &b.held), 0);
    w2 = 1; /* a closed gate on one word holds back nothing of another */
    assert_int_equal(take(&set)->id, 2);
    assert_null(take(&set));
    w1 = 5;
    assert_int_equal(take(&set)->id, 1);
    sshmem_held_clear(&set, NULL);
}

/* Three senders 0, 700 and 5,000 calls ahead, one message per call each, arriving
 * interleaved; the owner then raises its word one call at a time: every message comes out at
 * exactly its call, each sender's in the order sent. */
#define CALLS 6000
static void many_interleaved(void **state)
{
    (void)state;
    long word = 0;
    static const long ahead[3] = {0, 700, 5000};
    sshmem_held_set_t set = {0};
    msg_t *m = calloc(3 * CALLS, sizeof *m);
    assert_non_null(m);
    for (int c = 0; c < CALLS; c++)
        for (int s = 0; s < 3; s++) {
            long gate = c + ahead[s] - 5000;
            if (gate < 1 || gate > CALLS)
                continue;
            msg_t *x = &m[(gate - 1) * 3 + s];
            x->held = (sshmem_held_t){&word, gate};
            x->id = (int)((gate - 1) * 3 + s);
            assert_int_equal(sshmem_held_add(&set, &x->held), 0);
        }
    size_t total = set.count;
    int seen[3 * CALLS] = {0};
    size_t out = 0;
    for (long w = 1; w <= CALLS; w++) {
        word = w;
        msg_t *x;
        long last[3] = {0, 0, 0};
        while ((x = take(&set))) {
            assert_int_equal(x->held.open_at, w); /* not before, not after its call */
            int s = x->id % 3;
            assert_true(x->held.open_at >= last[s]);
            last[s] = x->held.open_at;
            assert_int_equal(seen[x->id]++, 0);
            out++;
        }
    }
    assert_int_equal(out, total);
    assert_int_equal(set.count, 0);
    free(m);
    sshmem_held_clear(&set, NULL);
}

/* A gate below the lowest one held (a message counted just as its word was raised, so
 * already open), gates far apart (the ring grows), and a ring used round and round: each
 * comes out at its call, none twice. */
static void ring_edges(void **state)
{
    (void)state;
    long word = 4;
    sshmem_held_set_t set = {0};
    msg_t m[8];
    const long gates[8] = {5, 6, 7, 8, 9, 10, 6, 300000};
    for (int i = 0; i < 6; i++) {
        m[i] = (msg_t){{&word, gates[i]}, i};
        assert_int_equal(sshmem_held_add(&set, &m[i].held), 0);
    }
    word = 7;
    for (int i = 0; i < 3; i++)
        assert_int_equal(take(&set)->id, i); /* 5, 6, 7 */
    assert_null(take(&set));
    m[6] = (msg_t){{&word, gates[6]}, 6}; /* below what is held now: still comes out first */
    assert_int_equal(sshmem_held_add(&set, &m[6].held), 0);
    m[7] = (msg_t){{&word, gates[7]}, 7}; /* far ahead: the ring grows */
    assert_int_equal(sshmem_held_add(&set, &m[7].held), 0);
    assert_int_equal(take(&set)->id, 6);
    assert_null(take(&set));
    word = 10;
    for (int i = 3; i < 6; i++)
        assert_int_equal(take(&set)->id, i);
    assert_null(take(&set));
    word = 300000;
    assert_int_equal(take(&set)->id, 7);
    assert_int_equal(set.count, 0);
    sshmem_held_clear(&set, NULL);
    /* round and round a ring of 128 buckets: 100 messages at a time, 20,000 calls */
    static msg_t many[100];
    word = 0;
    for (long base = 1; base < 20001; base += 100) {
        for (int k = 0; k < 100; k++) {
            many[k] = (msg_t){{&word, base + (k * 37) % 100}, k};
            assert_int_equal(sshmem_held_add(&set, &many[k].held), 0);
        }
        word = base + 99;
        int seen[100] = {0};
        long last = 0;
        for (int k = 0; k < 100; k++) {
            msg_t *x = take(&set);
            assert_non_null(x);
            assert_true(x->held.open_at >= last);
            last = x->held.open_at;
            assert_int_equal(seen[x->id]++, 0);
        }
        assert_null(take(&set));
    }
    assert_int_equal(set.count, 0);
    assert_int_equal(set.queues[0].cap, 128);
    sshmem_held_clear(&set, NULL);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(gate_order),
        cmocka_unit_test(words_apart),
        cmocka_unit_test(many_interleaved),
        cmocka_unit_test(ring_edges),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
