cmake_policy(VERSION 3.20)
# The layer rule, checked by a CTest: includes point only down the layers of docs/design.md.
#   sim     -> the standard library, GLM, oneTBB (no io, render, scenes, app, ImGui, GL, SDL)
#   io      -> the standard library, nlohmann-json, stb (none of the program's layers: all of them may use it)
#   render  -> sim (no scenes, app)
#   bench   -> sim, io (its flags and its CSV go through io's reader and writer)
#   scenes  -> sim, io, render, ImGui (no experiments, bench, app, SDL); only its window side ImGui and GL (below)
#   experiments -> sim, io, scenes (no render, app, GL, SDL)
#   app     -> everything below it (nothing includes app)
# Inside sim: core -> core; rules -> core, rules; models -> core, rules.
# Run: cmake -DSRC=<repo>/src -P check_layers.cmake
set(rules
  "sim/core|sim/(rules|models)/|io/|render/|scenes/|app/|bench/|imgui|SDL|glad|GL/"
  "sim/rules|sim/models/|io/|render/|scenes/|app/|bench/|imgui|SDL|glad|GL/"
  "sim/models|io/|render/|scenes/|app/|bench/|imgui|SDL|glad|GL/"
  "io|sim/|render/|scenes/|app/|bench/|experiments/|imgui|SDL|glad|GL/"
  "render|scenes/|app/|bench/"
  "bench|render/|scenes/|app/|experiments/|imgui|SDL|glad|GL/"
  "scenes|experiments/|bench/|app/|SDL"
  "experiments|render/|app/|bench/|SDL|glad|GL/")
# Every folder of src/ must have a rule above (app's is that no other folder includes it): a new
# folder without one would pass unchecked.
set(known sim io render scenes experiments bench app)
set(bad 0)
file(GLOB top RELATIVE "${SRC}" "${SRC}/*")
foreach(dir IN LISTS top)
  if(IS_DIRECTORY "${SRC}/${dir}" AND NOT dir IN_LIST known)
    message(SEND_ERROR "layer rule: src/${dir} has no rule in check_layers.cmake")
    set(bad 1)
  endif()
endforeach()
# Each of `files` whose includes name one of `forbidden` (a regex) is reported as breaking `what`.
function(check_includes files forbidden what)
  foreach(f IN LISTS files)
    file(STRINGS "${f}" includes REGEX "^[ \t]*#[ \t]*include[ \t]*[<\"]")
    foreach(line IN LISTS includes)
      if(line MATCHES "include[ \t]*[<\"](${forbidden})")
        file(RELATIVE_PATH rel "${SRC}" "${f}")
        message(SEND_ERROR "layer rule: ${rel} ${what}: ${line}")
        set(bad 1 PARENT_SCOPE)
      endif()
    endforeach()
  endforeach()
endfunction()
foreach(rule IN LISTS rules)
  string(FIND "${rule}" "|" bar)
  string(SUBSTRING "${rule}" 0 ${bar} layer)
  math(EXPR rest "${bar} + 1")
  string(SUBSTRING "${rule}" ${rest} -1 forbidden)
  file(GLOB_RECURSE files "${SRC}/${layer}/*.hpp" "${SRC}/${layer}/*.cpp" "${SRC}/${layer}/*.inl")
  check_includes("${files}" "${forbidden}" "(${layer}) includes a higher layer")
endforeach()
# Inside scenes: all but the window side (the *_window files and the panels' helpers, CMakeLists.txt's
# crowdlab_scene_windows) includes no ImGui, no GL and no panel helper: the scenes' simulations, the
# scene core, the experiments and the scene tests link neither (the link graph is checked by
# layers.experiments_link_no_ui).
file(GLOB scene_files "${SRC}/scenes/*.hpp" "${SRC}/scenes/*.cpp")
list(FILTER scene_files EXCLUDE REGEX "/([a-z_]+_window|param_ui)[.](hpp|cpp)$")
check_includes("${scene_files}" "imgui|backends/|glad|GL/|render/(renderer|gpu_boids|gl)[.]|scenes/(param_ui|[a-z_]+_window)[.]"
               "(a scene's simulation side) includes UI or GL")
if(bad)
  message(FATAL_ERROR "include layers broken (see docs/design.md)")
endif()
message(STATUS "include layers: ok")
