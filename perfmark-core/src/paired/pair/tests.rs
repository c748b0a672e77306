use super::*;

#[test]
fn links_are_cycled_and_shared_links_pooled() {
    let p = |h: usize, b: usize| {
        let links = |n: usize| {
            (0..n)
                .map(|k| PathBuf::from(format!("l{k}")))
                .collect::<Vec<_>>()
        };
        ProcessPair::new("t", &links(h), &links(b)).layouts()
    };
    assert_eq!(p(1, 1), 1);
    assert_eq!(p(10, 10), 10);
    assert_eq!(p(4, 6), 12);
    assert_eq!(p(1, 5), 5);
}
