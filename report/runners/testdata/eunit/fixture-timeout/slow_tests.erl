-module(slow_tests).
-include_lib("eunit/include/eunit.hrl").

%% One test passes; one runs past its timeout, which EUnit cancels and
%% leaves out of its total.
quick_test() -> ?assertEqual(4, 2 + 2).
slow_test_() -> {timeout, 1, fun() -> timer:sleep(3000) end}.
