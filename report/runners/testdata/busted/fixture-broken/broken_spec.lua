describe("broken", function()
  it("never runs", function()
    assert.is_true(true)
  end
end)
