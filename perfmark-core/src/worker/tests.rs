use super::*;

#[test]
fn placements_cover_a_page_in_steps_the_abi_keeps() {
    let mut rng = 7;
    let drawn: Vec<Placement> = (0..2000).map(|_| Placement::draw(&mut rng)).collect();
    assert!(drawn
        .iter()
        .all(|p| p.stack_pad < PLACEMENT_RANGE && p.heap_offset < PLACEMENT_RANGE));
    assert!(drawn.iter().all(|p| p.heap_offset % 16 == 0));
    // Every 64-byte line offset of the stack is reached, and the heap's
    // 16-byte steps nearly all.
    let lines: std::collections::BTreeSet<usize> = drawn.iter().map(|p| p.stack_pad % 64).collect();
    assert_eq!(lines.len(), 64);
    let steps: std::collections::BTreeSet<usize> = drawn.iter().map(|p| p.heap_offset).collect();
    assert!(steps.len() > 200, "{}", steps.len());
}
