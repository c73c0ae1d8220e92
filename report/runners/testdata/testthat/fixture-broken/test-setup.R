# Code outside any test_that(): an error here stops the file.
fixture <- readRDS("no-such-fixture.rds")

test_that("uses the fixture", {
  expect_equal(nrow(fixture), 3)
})
