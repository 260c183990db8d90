# Embeds assets/lessons/*.json into the binary, as the presets are, so `--lesson NAME` works from any
# directory and in the browser.
file(GLOB files ${DIR}/*.json)
list(SORT files)
set(body "// Generated from assets/lessons by cmake/embed_lessons.cmake. Do not edit.\n#include \"app/lesson.hpp\"\nnamespace app {\nstatic const BuiltinLesson kLessons[] = {\n")
foreach(f ${files})
  get_filename_component(name ${f} NAME_WE)
  file(READ ${f} text)
  set(body "${body}  {\"${name}\", R\"crowdlab_json(${text})crowdlab_json\"},\n")
endforeach()
set(body "${body}  {nullptr, nullptr}};\nstd::span<const BuiltinLesson> builtinLessons() { return {kLessons, sizeof(kLessons) / sizeof(kLessons[0]) - 1}; }\n}  // namespace app\n")
file(WRITE ${OUT}.tmp "${body}")
file(COPY_FILE ${OUT}.tmp ${OUT} ONLY_IF_DIFFERENT)
